import Foundation
import PostgresNIO

/// The PostgreSQL schema, under the same migration names as ``AppDatabase``'s: "v1" creates what SQLite's
/// v1…v13 built step by step (a new database never needs the steps), the other names up to
/// ``baselineThrough`` are recorded as included in it, and every later SQLite migration needs its
/// PostgreSQL statements here under the same name (``migrate()`` refuses to run without them). Both
/// stores' `migrations` tables therefore list the same names, which `swingmaster migrate` compares.
extension PostgresStore {
    /// The last SQLite migration the baseline includes.
    static let baselineThrough = "v13-job-leases"

    /// Statements of migrations after the baseline, by name.
    static let laterMigrations: [String: [String]] = [
        // The player's point and moment from the upload page (SQLite's v14-job-player, the same checks).
        "v14-job-player": [
            """
            ALTER TABLE job
                ADD COLUMN playerX DOUBLE PRECISION CHECK (playerX IS NULL OR playerX BETWEEN 0 AND 1),
                ADD COLUMN playerY DOUBLE PRECISION
                    CHECK ((playerY IS NULL OR playerY BETWEEN 0 AND 1) AND (playerX IS NULL) = (playerY IS NULL)),
                ADD COLUMN playerTime DOUBLE PRECISION CHECK (playerTime IS NULL OR (playerTime >= 0 AND playerX IS NOT NULL))
            """,
        ],
        // The player's racket sounds and the one a job is heard with (SQLite's v15-contact-models).
        "v15-contact-models": [
            """
            CREATE TABLE contactModel (
                id BIGSERIAL PRIMARY KEY,
                name TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL,
                sessionId BIGINT,
                contacts INTEGER NOT NULL CHECK (contacts >= 0),
                f1 DOUBLE PRECISION NOT NULL,
                model TEXT NOT NULL)
            """,
            "ALTER TABLE job ADD COLUMN contactModelId BIGINT",
        ],
    ]

    /// The baseline schema (the records of ``AppDatabase`` at v13). Identifiers are unquoted, so
    /// PostgreSQL folds them to lower case; statements written in camelCase read them the same way.
    static let baseline: [String] = [
        """
        CREATE TABLE player (
            id BIGSERIAL PRIMARY KEY,
            dominantHand TEXT NOT NULL CHECK (dominantHand IN ('right', 'left')),
            createdAt TIMESTAMPTZ NOT NULL)
        """,
        """
        CREATE TABLE session (
            id BIGSERIAL PRIMARY KEY,
            filePath TEXT NOT NULL,
            fileName TEXT NOT NULL,
            fileSHA256 TEXT NOT NULL,
            createdAt TIMESTAMPTZ NOT NULL,
            durationSeconds DOUBLE PRECISION NOT NULL,
            fps DOUBLE PRECISION NOT NULL,
            hand TEXT NOT NULL CHECK (hand IN ('right', 'left')),
            stats JSONB NOT NULL,
            documentJSON TEXT,
            revision INTEGER NOT NULL DEFAULT 0)
        """,
        "CREATE INDEX session_created ON session (createdAt DESC, id DESC)",
        "CREATE INDEX session_file ON session (filePath)",
        // The enum values as SQLite's v9-shot-json spells them: a new case needs a migration in both stores.
        """
        CREATE TABLE shot (
            id BIGSERIAL PRIMARY KEY,
            sessionId BIGINT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
            shot JSONB NOT NULL CHECK (
                jsonb_typeof(shot->'index') = 'number'
                AND shot->>'status' IN ('ok', 'noPerson')
                AND COALESCE(shot->>'classification' IN ('late', 'optimal', 'early'), TRUE)
                AND COALESCE(shot->>'source' IN ('both', 'audio', 'visual'), TRUE)),
            frames JSONB,
            "index" INTEGER GENERATED ALWAYS AS ((shot->>'index')::integer) STORED,
            UNIQUE (sessionId, "index"))
        """,
        """
        CREATE TABLE sessionTrack (
            sessionId BIGINT PRIMARY KEY REFERENCES session(id) ON DELETE CASCADE,
            track BYTEA NOT NULL,
            videoFrames TEXT NOT NULL,
            poseToDisplayX DOUBLE PRECISION NOT NULL,
            poseToDisplayY DOUBLE PRECISION NOT NULL,
            parameters TEXT NOT NULL)
        """,
        """
        CREATE TABLE job (
            id BIGSERIAL PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
            stage TEXT CHECK (stage IN ('extracting audio', 'detecting contacts', 'detecting visual contacts',
                                        'running body pose', 'computing statistics')),
            progress DOUBLE PRECISION NOT NULL DEFAULT 0,
            error TEXT,
            errorCode INTEGER,
            warningsJSON TEXT,
            sessionId BIGINT REFERENCES session(id) ON DELETE SET NULL,
            mediaSHA256 TEXT NOT NULL,
            mediaPath TEXT NOT NULL,
            fileName TEXT NOT NULL,
            playbackPath TEXT,
            hand TEXT CHECK (hand IN ('right', 'left')),
            start DOUBLE PRECISION,
            duration DOUBLE PRECISION,
            swingCheck BOOLEAN NOT NULL DEFAULT TRUE,
            sensitivity TEXT CHECK (sensitivity IN ('fewer', 'normal', 'more')),
            cancelRequested BOOLEAN NOT NULL DEFAULT FALSE,
            workerId TEXT,
            heartbeatAt TIMESTAMPTZ,
            createdAt TIMESTAMPTZ NOT NULL,
            startedAt TIMESTAMPTZ,
            finishedAt TIMESTAMPTZ,
            leaseToken TEXT,
            leaseExpiresAt TIMESTAMPTZ,
            attempts INTEGER NOT NULL DEFAULT 0,
            expiries INTEGER NOT NULL DEFAULT 0,
            runAfter TIMESTAMPTZ)
        """,
        "CREATE INDEX job_claim ON job (state, createdAt, id)",
        "CREATE INDEX job_media ON job (mediaPath)",
        """
        CREATE TABLE modelRecord (
            modelId TEXT PRIMARY KEY,
            isFavorite BOOLEAN NOT NULL DEFAULT FALSE,
            isHidden BOOLEAN NOT NULL DEFAULT FALSE,
            confThreshold DOUBLE PRECISION,
            iouThreshold DOUBLE PRECISION,
            downloadedAt TIMESTAMPTZ,
            lastUsedAt TIMESTAMPTZ,
            usageCount INTEGER NOT NULL DEFAULT 0,
            interpreterConfigJSON TEXT,
            maxDetections INTEGER,
            lineWidth INTEGER,
            interpreter TEXT)
        """,
        """
        CREATE TABLE detectionSession (
            id BIGSERIAL PRIMARY KEY,
            modelId TEXT NOT NULL,
            startedAt TIMESTAMPTZ NOT NULL,
            endedAt TIMESTAMPTZ NOT NULL,
            frameCount INTEGER NOT NULL,
            detectionCount INTEGER NOT NULL,
            averageInferenceMs DOUBLE PRECISION NOT NULL,
            source TEXT,
            interpreter TEXT,
            summary TEXT)
        """,
        "CREATE INDEX detection_model ON detectionSession (modelId, startedAt DESC)",
    ]

    /// The migration names applied to this database, in order.
    package func appliedMigrations() async throws -> [String] {
        try await run("read the applied migrations") { connection in
            var names: [String] = []
            let rows = try await connection.query("SELECT name FROM migrations ORDER BY position", logger: logger)
            for try await name in rows.decode(String.self) { names.append(name) }
            return names
        }
    }

    /// Applies the migrations this database lacks, in one transaction under an advisory lock: processes
    /// that start together wait for the first, then find the schema done.
    func migrate() async throws {
        let names = AppDatabase.migrator.migrations
        guard let baselineEnd = names.firstIndex(of: Self.baselineThrough) else {
            throw StoreError.databaseError("The PostgreSQL baseline names a migration SQLite does not have (\(Self.baselineThrough)).")
        }
        for name in names[(baselineEnd + 1)...] where Self.laterMigrations[name] == nil {
            throw StoreError.databaseError("Migration \(name) has no PostgreSQL statements; add them to PostgresStore.laterMigrations.")
        }
        try await transaction("prepare the database") { connection in
            // 0x5357494e47 = "SWING": one lock id for every Swingmaster process on this server.
            try await connection.query("SELECT pg_advisory_xact_lock(358246303303)", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS migrations (
                    name TEXT PRIMARY KEY, position INTEGER NOT NULL, appliedAt TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM migrations", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            for (position, name) in names.enumerated() where !applied.contains(name) {
                let statements: [String]
                if position == 0 { statements = Self.baseline }
                else if position <= baselineEnd { statements = [] }   // included in the baseline
                else { statements = Self.laterMigrations[name] ?? [] }
                for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                try await connection.query("INSERT INTO migrations (name, position) VALUES (\(name), \(position))", logger: logger)
            }
        }
    }
}
