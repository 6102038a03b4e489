import ArgumentParser

/// Every `swingmaster` subcommand, one line each (adding a command = one file + one line here).
enum SubcommandRegistry {
    static let all: [any ParsableCommand.Type] = [
        ContactsCommand.self,
        LearnContactsCommand.self,
        AnalyzeCommand.self,
        MeasureCommand.self,
        SessionsCommand.self,
        PoseCommand.self,
        InterpretCommand.self,
        ModelsCommand.self,
        ServeCommand.self,
        WorkerCommand.self,
        MigrateCommand.self,
        DetectCommand.self,
    ]
}
