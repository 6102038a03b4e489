import SwingCLI

await SwingmasterCommand.main()
