#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Command-line options: `--frames N`, `--no-color`, `--interactive`.
struct Options {
  var frames = 24
  var color = true
  var interactive = false
  /// Whether standard output is a terminal: frames redraw in place and pause briefly.
  var isTerminal = isatty(STDOUT_FILENO) != 0

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--frames":
        if let value = iterator.next().flatMap(Int.init), value > 0 { options.frames = value }
      case "--no-color": options.color = false
      case "--interactive": options.interactive = true
      case "--help", "-h":
        print("usage: swift run Showcase [--frames N] [--no-color] [--interactive]")
        exit(0)
      default:
        print("unknown option \(argument); try --help")
        exit(2)
      }
    }
    if !options.isTerminal { options.color = false }
    return options
  }
}
