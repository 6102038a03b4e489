import ArgumentParser

/// Every `swingmaster` subcommand, one line each (adding a command = one file + one line here).
enum SubcommandRegistry {
    static let all: [any ParsableCommand.Type] = [
        MeasureCommand.self,
        SessionsCommand.self,
        InterpretCommand.self,
        ModelsCommand.self,
    ]
}
