import GRDB
import SwingBiomech
import SwingCore

extension AppDatabase {
    /// Schema migrations, registered by name. A shipped migration is never edited: add "v2", "v3"… instead.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("dominantHand", .text).notNull().check { ["right", "left"].contains($0) }
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "session") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("filePath", .text).notNull()
                t.column("fileName", .text).notNull()
                t.column("fileSHA256", .text).notNull()
                t.column("createdAt", .datetime).notNull().indexed()
                t.column("durationSeconds", .double).notNull()
                t.column("fps", .double).notNull()
                t.column("hand", .text).notNull().check { ["right", "left"].contains($0) }
                t.column("statsJSON", .text).notNull()
                t.column("shotCount", .integer).notNull()
                t.column("consistency", .double)
            }
            try db.create(table: "shot") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("session", onDelete: .cascade).notNull()
                t.column("index", .integer).notNull()
                t.column("time", .double).notNull()
                t.column("confidence", .double).notNull()
                t.column("status", .text).notNull()
                t.column("forwardCm", .double)
                t.column("lateralCm", .double)
                t.column("heightCm", .double)
                t.column("wristSpeedCmS", .double)
                t.column("classification", .text)
                t.column("contactFrame", .integer)
                t.column("arcJSON", .text)
                t.column("jointsJSON", .text)
                t.uniqueKey(["sessionId", "index"])
            }
            try db.create(table: "modelRecord") { t in
                t.primaryKey("modelId", .text)
                t.column("isFavorite", .boolean).notNull().defaults(to: false)
                t.column("isHidden", .boolean).notNull().defaults(to: false)
                t.column("confThreshold", .double)
                t.column("iouThreshold", .double)
                t.column("downloadedAt", .datetime)
                t.column("lastUsedAt", .datetime)
                t.column("usageCount", .integer).notNull().defaults(to: 0)
                t.column("interpreterConfigJSON", .text)
            }
            try db.create(table: "detectionSession") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("modelId", .text).notNull().indexed()
                t.column("startedAt", .datetime).notNull()
                t.column("endedAt", .datetime).notNull()
                t.column("frameCount", .integer).notNull()
                t.column("detectionCount", .integer).notNull()
                t.column("averageInferenceMs", .double).notNull()
            }
        }
        // Audio/visual contact fusion (`analyze --detector`): where each shot's contact came from.
        // NULL for shots analysed from the sound alone (no detector, or stored before this migration).
        migrator.registerMigration("v2-shot-source") { db in
            try db.alter(table: "shot") { t in
                t.add(column: "source", .text).check { ["both", "audio", "visual"].contains($0) }
                t.add(column: "visualOffsetMs", .double)
            }
        }
        // One session document (the `analyze --json` bytes, also served by `sessions export --json` and
        // the HTTP API) and, per shot, the posed frames of its swing window for the shot view. NULL for
        // sessions stored before this migration: those documents are rebuilt from the shot columns.
        migrator.registerMigration("v3-session-document") { db in
            try db.alter(table: "session") { t in t.add(column: "documentJSON", .text) }
            try db.alter(table: "shot") { t in t.add(column: "framesJSON", .text) }
        }
        // Analysis jobs of the web app (`swingmaster serve`), claimed by workers through the row.
        migrator.registerMigration("v4-jobs") { db in
            try db.create(table: "job") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("state", .text).notNull().indexed()
                    .check { ["queued", "running", "done", "failed", "cancelled"].contains($0) }
                t.column("stage", .integer).notNull().defaults(to: 0)
                t.column("stageName", .text)
                t.column("progress", .double).notNull().defaults(to: 0)
                t.column("error", .text)
                t.column("errorCode", .integer)
                t.column("warningsJSON", .text)
                t.column("sessionId", .integer).references("session", onDelete: .setNull)
                t.column("mediaSHA256", .text).notNull()
                t.column("mediaPath", .text).notNull().indexed()
                t.column("fileName", .text).notNull()
                t.column("playbackPath", .text)
                t.column("hand", .text).check { $0 == nil || ["right", "left"].contains($0) }
                t.column("start", .double)
                t.column("duration", .double)
                t.column("cancelRequested", .boolean).notNull().defaults(to: false)
                t.column("workerId", .text)
                t.column("heartbeatAt", .datetime)
                t.column("createdAt", .datetime).notNull().indexed()
                t.column("startedAt", .datetime)
                t.column("finishedAt", .datetime)
            }
        }
        // Shots' enum columns get the CHECK constraints their types promise (status, classification;
        // source had one since v2). SQLite cannot add a CHECK to a column, so the table is rebuilt and
        // its rows copied; ids stay, so job and document references hold.
        migrator.registerMigration("v5-shot-checks") { db in
            try db.create(table: "shotNew") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("sessionId", .integer).notNull().references("session", onDelete: .cascade)  // indexed by the unique key
                t.column("index", .integer).notNull()
                t.column("time", .double).notNull()
                t.column("confidence", .double).notNull()
                t.column("status", .text).notNull().check { ShotStatus.allCases.map(\.rawValue).contains($0) }
                t.column("forwardCm", .double)
                t.column("lateralCm", .double)
                t.column("heightCm", .double)
                t.column("wristSpeedCmS", .double)
                t.column("classification", .text).check { ContactClassification.allCases.map(\.rawValue).contains($0) }
                t.column("contactFrame", .integer)
                t.column("arcJSON", .text)
                t.column("jointsJSON", .text)
                t.column("source", .text).check { ContactSource.allCases.map(\.rawValue).contains($0) }
                t.column("visualOffsetMs", .double)
                t.column("framesJSON", .text)
                t.uniqueKey(["sessionId", "index"])
            }
            let columns = """
                id, sessionId, "index", time, confidence, status, forwardCm, lateralCm, heightCm, wristSpeedCmS,
                classification, contactFrame, arcJSON, jointsJSON, source, visualOffsetMs, framesJSON
                """
            try db.execute(sql: "INSERT INTO shotNew (\(columns)) SELECT \(columns) FROM shot")
            try db.drop(table: "shot")
            try db.rename(table: "shotNew", to: "shot")
        }
        // The column holds a video frame index (the document's `contactVideoFrame`); the pose track's own
        // index is never stored. Named for what it indexes, as in the document.
        migrator.registerMigration("v6-contact-video-frame") { db in
            try db.alter(table: "shot") { t in t.rename(column: "contactFrame", to: "contactVideoFrame") }
        }
        // The model studio: a model's defaults also cover max detections, line width and the interpreter to
        // run; a detection run says what it ran on and which interpreter read it.
        migrator.registerMigration("v7-model-studio") { db in
            try db.alter(table: "modelRecord") { t in
                t.add(column: "maxDetections", .integer)
                t.add(column: "lineWidth", .integer)
                t.add(column: "interpreter", .text)
            }
            try db.alter(table: "detectionSession") { t in
                t.add(column: "source", .text)
                t.add(column: "interpreter", .text)
            }
        }
        // A detection run keeps its interpreter's one-line summary (the studio's run lists show it).
        migrator.registerMigration("v8-run-summary") { db in
            try db.alter(table: "detectionSession") { t in t.add(column: "summary", .text) }
        }
        // One shape for a shot: each row holds the shot as the session document has it (a JSON column the
        // record decodes into `Shot`) and its posed frames (a JSON column), instead of a column per field
        // with the arc and the frames as JSON text. Sessions with a document take their shots from it (it
        // has contactTime and groundCm, which the columns never had); older ones are built from the
        // columns (contactTime = the heard time, as their documents were always rebuilt). `index` is
        // generated from the shot and keys the row; the enum values are checked inside the JSON. The
        // pre-v3 `jointsJSON` is carried over untouched (read by nothing, dropped by nothing). The
        // session's statistics become one JSON column too, with the `shotCount` / `consistency` copies
        // folded into it (the statistics' own `shotCount` wins where it was written).
        migrator.registerMigration("v9-shot-json") { db in
            // The values the enums had when this migration was written, spelled out: a migration is
            // history and must write the same schema whatever the enums become later. A new case needs a
            // new migration that widens the check (SQLite rebuilds the table for that).
            try db.execute(sql: """
                CREATE TABLE shotNew (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    sessionId INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                    shot TEXT NOT NULL CHECK (
                        json_valid(shot)
                        AND json_type(shot, '$.index') = 'integer'
                        AND json_extract(shot, '$.status') IN ('ok', 'noPerson')
                        AND COALESCE(json_extract(shot, '$.classification') IN ('late', 'optimal', 'early'), 1)
                        AND COALESCE(json_extract(shot, '$.source') IN ('both', 'audio', 'visual'), 1)),
                    frames TEXT CHECK (frames IS NULL OR json_valid(frames)),
                    jointsJSON TEXT,
                    "index" INTEGER GENERATED ALWAYS AS (json_extract(shot, '$.index')) VIRTUAL,
                    UNIQUE (sessionId, "index"))
                """)
            try db.execute(sql: """
                INSERT INTO shotNew (id, sessionId, shot, frames, jointsJSON)
                SELECT s.id, s.sessionId,
                    COALESCE(
                        (SELECT j.value FROM session d,
                             json_each(CASE WHEN json_valid(d.documentJSON) THEN d.documentJSON END, '$.session.shots') j
                         WHERE d.id = s.sessionId AND json_extract(j.value, '$.index') = s."index"),
                        json_object(
                            'index', s."index", 'time', s.time, 'contactTime', s.time, 'confidence', s.confidence,
                            'status', s.status,
                            'contact', CASE WHEN s.forwardCm IS NOT NULL AND s.lateralCm IS NOT NULL AND s.heightCm IS NOT NULL
                                THEN json_object('forwardCm', s.forwardCm, 'lateralCm', s.lateralCm, 'heightCm', s.heightCm) END,
                            'wristSpeedCmS', s.wristSpeedCmS, 'classification', s.classification,
                            'contactVideoFrame', s.contactVideoFrame,
                            'arc', CASE WHEN json_valid(s.arcJSON) AND json_type(s.arcJSON, '$.body') = 'array'
                                THEN json(s.arcJSON) END,
                            'source', s.source, 'visualOffsetMs', s.visualOffsetMs)),
                    CASE WHEN json_valid(s.framesJSON) THEN s.framesJSON END,
                    s.jointsJSON
                FROM shot s
                """)
            try db.drop(table: "shot")
            try db.rename(table: "shotNew", to: "shot")

            try db.alter(table: "session") { t in t.rename(column: "statsJSON", to: "stats") }
            try db.execute(sql: """
                UPDATE session SET stats = CASE
                    WHEN json_valid(stats) AND json_type(stats) = 'object' THEN
                        CASE WHEN json_type(stats, '$.shotCount') = 'integer' THEN stats
                             ELSE json_set(stats, '$.shotCount', shotCount) END
                    ELSE json_object('shotCount', shotCount, 'consistency', consistency) END
                """)
            try db.alter(table: "session") { t in
                t.drop(column: "shotCount")
                t.drop(column: "consistency")
            }
        }
        // A job's stage is the analysis' typed stage (its raw value, checked), not a number beside a name
        // the server made up: NULL before the analysis starts. Stages 1…4 of the old numbering map to the
        // four stages a job runs.
        migrator.registerMigration("v10-job-stage") { db in
            // The stage names of this version, spelled out (see v9-shot-json): a new stage needs a new migration.
            try db.alter(table: "job") { t in
                t.add(column: "analysisStage", .text).check(sql: """
                    analysisStage IN ('extracting audio', 'detecting contacts', 'detecting visual contacts',
                                      'running body pose', 'computing statistics')
                    """)
            }
            try db.execute(sql: """
                UPDATE job SET analysisStage = CASE stage
                    WHEN 1 THEN 'extracting audio' WHEN 2 THEN 'detecting contacts'
                    WHEN 3 THEN 'running body pose' WHEN 4 THEN 'computing statistics' END
                """)
            try db.alter(table: "job") { t in
                t.drop(column: "stage")
                t.drop(column: "stageName")
                t.rename(column: "analysisStage", to: "stage")
            }
        }
        // Editing (issue #27): the pose track a session was measured on is kept, so removing, adding or
        // restoring a contact re-measures in place; the revision counts the session's versions, so two
        // edits made at once cannot both be stored over the same version.
        migrator.registerMigration("v11-session-edits") { db in
            try db.alter(table: "session") { t in t.add(column: "revision", .integer).notNull().defaults(to: 0) }
            try db.alter(table: "job") { t in t.add(column: "swingCheck", .boolean).notNull().defaults(to: true) }
            try db.create(table: "sessionTrack") { t in
                t.primaryKey("sessionId", .integer).references("session", onDelete: .cascade)
                t.column("track", .blob).notNull()
                t.column("videoFrames", .text).notNull()
                t.column("poseToDisplayX", .double).notNull()
                t.column("poseToDisplayY", .double).notNull()
                t.column("parameters", .text).notNull()
            }
        }
        // The upload's sensitivity (issue #27), spelled out like v9's enums: a new level needs a new migration.
        migrator.registerMigration("v12-job-sensitivity") { db in
            try db.alter(table: "job") { t in
                t.add(column: "sensitivity", .text).check(sql: "sensitivity IN ('fewer', 'normal', 'more')")
            }
        }
        // Leases (issue #29): a claim gets a token and an expiry that heartbeats renew; a job whose worker
        // died is taken again when its lease runs out, at most JobRecord.maxAttempts times, and only the
        // token's holder can finish it. Jobs an older version left running are claimable at once.
        migrator.registerMigration("v13-job-leases") { db in
            try db.alter(table: "job") { t in
                t.add(column: "leaseToken", .text)
                t.add(column: "leaseExpiresAt", .datetime)
                t.add(column: "attempts", .integer).notNull().defaults(to: 0)
                t.add(column: "expiries", .integer).notNull().defaults(to: 0)
                t.add(column: "runAfter", .datetime)
            }
            try db.execute(sql: """
                UPDATE job SET leaseToken = 'v13', leaseExpiresAt = COALESCE(heartbeatAt, startedAt, createdAt), attempts = 1
                WHERE state = 'running'
                """)
            try db.create(index: "job_claim", on: "job", columns: ["state", "createdAt", "id"])
        }
        // The player says who they are (issue #39): the point they tapped on the upload page, as fractions of the
        // picture, and the moment of the video they tapped it at. A point is whole and in the picture; a moment
        // needs a point.
        migrator.registerMigration("v14-job-player") { db in
            try db.alter(table: "job") { t in
                t.add(column: "playerX", .double).check(sql: "playerX IS NULL OR playerX BETWEEN 0 AND 1")
                t.add(column: "playerY", .double)
                    .check(sql: "(playerY IS NULL OR playerY BETWEEN 0 AND 1) AND (playerX IS NULL) = (playerY IS NULL)")
                t.add(column: "playerTime", .double).check(sql: "playerTime IS NULL OR (playerTime >= 0 AND playerX IS NOT NULL)")
            }
        }
        // The player's racket sound (issue #38): contact models learnt from a session in the web app, and the
        // one an upload is to be heard with. A job keeps the id only; a model deleted before the job runs
        // fails it with a sentence.
        migrator.registerMigration("v15-contact-models") { db in
            try db.create(table: "contactModel") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("sessionId", .integer)
                t.column("contacts", .integer).notNull().check(sql: "contacts >= 0")
                t.column("f1", .double).notNull()
                t.column("model", .text).notNull()
            }
            try db.alter(table: "job") { t in t.add(column: "contactModelId", .integer) }
        }
        return migrator
    }
}
