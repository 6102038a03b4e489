#!/usr/bin/env python3
"""Reads a TRC marker file and/or a MOT motion file with OpenSim's own readers and prints what they found.

The check that our exports are files OpenSim accepts (issue #41), with the readers of the `opensim` package on
PyPI (installed by `make setup-test`): its TRCFileAdapter and STOFileAdapter (behind TimeSeriesTableVec3 and
TimeSeriesTable) and MarkerData, the inverse-kinematics tool's reader; not a parser of ours. A file OpenSim
refuses makes this script print OpenSim's message and exit 1.

Usage: read_opensim.py [--trc FILE.trc] [--mot FILE.mot]  ->  one JSON object on stdout:
  {"trc": {"frames", "markers": [names], "units", "dataRate", "cameraRate", "times": [first, last],
           "first": [[x, y, z] per marker of the first frame]},
   "mot": {"rows", "columns": [labels], "inDegrees", "times": [first, last], "first": [values of the first row]}}
NaN values are written as null.
"""
import argparse
import json
import math
import sys


def num(v):
    return None if math.isnan(v) else v


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trc")
    ap.add_argument("--mot")
    args = ap.parse_args(argv)
    import opensim as osim
    osim.Logger.removeFileSink()           # else it writes opensim.log into the current folder
    osim.Logger.setLevelString("error")   # its "[info] Loaded marker file" lines would spoil the JSON
    out = {}
    try:
        if args.trc:
            table = osim.TimeSeriesTableVec3(args.trc)   # OpenSim's TRCFileAdapter
            legacy = osim.MarkerData(args.trc)             # the reader the inverse-kinematics tool uses
            times = table.getIndependentColumn()
            first = table.getRowAtIndex(0) if table.getNumRows() else None
            out["trc"] = {
                "frames": table.getNumRows(),
                "markers": list(table.getColumnLabels()),
                "units": table.getTableMetaDataAsString("Units"),
                "dataRate": float(table.getTableMetaDataAsString("DataRate")),
                "cameraRate": float(table.getTableMetaDataAsString("CameraRate")),
                "times": [times[0], times[len(times) - 1]] if len(times) else [],
                "first": [[num(first[i].get(k)) for k in range(3)] for i in range(first.size())] if first else [],
                "markerData": {"frames": legacy.getNumFrames(), "markers": legacy.getNumMarkers(),
                               "dataRate": legacy.getDataRate(), "units": legacy.getUnits().getAbbreviation()},
            }
        if args.mot:
            table = osim.TimeSeriesTable(args.mot)           # OpenSim's STOFileAdapter (.sto, .mot)
            times = table.getIndependentColumn()
            first = table.getRowAtIndex(0) if table.getNumRows() else None
            out["mot"] = {
                "rows": table.getNumRows(),
                "columns": list(table.getColumnLabels()),
                "inDegrees": table.getTableMetaDataAsString("inDegrees") if table.hasTableMetaDataKey("inDegrees") else None,
                "times": [times[0], times[len(times) - 1]] if len(times) else [],
                "first": [num(first[i]) for i in range(first.size())] if first else [],
            }
    except Exception as error:  # OpenSim refused the file: its own words
        print(f"OpenSim refused the file: {error}", file=sys.stderr)
        return 1
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
