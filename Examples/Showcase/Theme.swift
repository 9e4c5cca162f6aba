import Ripple

/// A lineage of themes: the dark theme inherits everything it does not override.
final class Theme: Ancestor {
  @Inherited var name: String = "base"
  @Inherited var accent: String = "36"  // ANSI cyan
  @Inherited var barFill: String = "█"
  @Inherited var barEmpty: String = "░"
  @Inherited var counterPrefix: String = "count"
}

/// The base theme and its dark descendant.
struct Themes {
  let base: Theme
  let dark: Theme

  init() {
    base = Theme()
    dark = base.descendant()
    dark.name = "dark"
    dark.accent = "35"  // ANSI magenta
    dark.barFill = "▓"
    // barEmpty and counterPrefix are inherited from the base theme.
  }
}
