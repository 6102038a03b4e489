import SwingCLI

await SwingmasterCommand.runAndExit()
