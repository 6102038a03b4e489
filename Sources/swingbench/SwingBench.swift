import ArgumentParser

/// `swingbench AREA …` — our side of each `make bench` comparison. Each area is one file + one line here.
@main
struct SwingBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swingbench",
        abstract: "Benchmarks for Swingmaster (run via `make bench`).",
        subcommands: [
            MediaBench.self,
            PoseBench.self,
            BiomechBench.self,
            InterpreterBench.self,
            ContactsBench.self,
            YOLOBench.self,
            TennisBench.self,
            HighlightsBench.self,
        ]
    )
}
