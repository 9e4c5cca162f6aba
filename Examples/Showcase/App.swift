import Ripple

/// The whole showcase: a store, a theme lineage, a scope tree of features, and a tree of
/// invalidating render nodes bound to the store and the theme.
final class App {
  let store = Store(scheduler: ImmediateScheduler.shared)
  let themes = Themes()
  let ticks = PassthroughSubject<Int, Never>()
  let root = RootScope()
  let features = Scope()
  let downloads = Scope()

  let screen = Panel(name: "screen", frame: Rect(x: 0, y: 0, width: 66, height: 7))
  let header = Label(name: "header")
  let counter = CounterView(name: "counter")
  let progress = ProgressBar(name: "progress")
  let message = Label(name: "message")
  let scopes = Label(name: "scopes")

  private var bindings = Set<AnyCancellable>()
  private var themeBindings = Set<AnyCancellable>()

  init() throws {
    for node in [header, counter, progress, message, scopes] { screen.addSubnode(node) }
    screen.title = "Ripple showcase"
    bindStore()
    apply(theme: themes.base)
    buildScopes()
    try features.attach(to: root)
  }

  private func buildScopes() {
    let ticks = self.ticks.eraseToAnyPublisher()
    try? CounterFeature(ticks: ticks, store: store).attach(to: features)
    try? DownloadFeature(ticks: ticks, store: store).attach(to: downloads)
    try? FeatureToggle(store: store, flag: .downloadsEnabled, feature: downloads, host: features)
      .attach(to: features)
  }

  /// Store values drive node properties; `@Invalidating` marks only what changed.
  private func bindStore() {
    let (counter, progress, message) = (Unchecked(counter), Unchecked(progress), Unchecked(message))
    store.publisher(for: .counter).sink { counter.value.value = $0.newValue }.store(in: &bindings)
    store.publisher(for: .progress).sink { progress.value.progress = $0.newValue }.store(
      in: &bindings)
    store.publisher(for: .message).sink { message.value.text = "› " + $0.newValue }.store(
      in: &bindings)
    store.publisher(for: .darkMode).sink { [unowned self] in
      apply(theme: $0.newValue ? themes.dark : themes.base)
    }.store(in: &bindings)
  }

  /// Theme values flow from the lineage into the nodes.
  private func apply(theme: Theme) {
    themeBindings.removeAll()
    let (counter, progress, screen) = (Unchecked(counter), Unchecked(progress), Unchecked(screen))
    theme.publisher(for: \Theme.barFill).sink { progress.value.fill = $0 }.store(in: &themeBindings)
    theme.publisher(for: \Theme.barEmpty).sink { progress.value.empty = $0 }.store(
      in: &themeBindings)
    theme.publisher(for: \Theme.counterPrefix).sink { counter.value.prefix = $0 }.store(
      in: &themeBindings)
    theme.publisher(for: \Theme.name).sink { screen.value.title = "Ripple showcase · \($0) theme" }
      .store(in: &themeBindings)
    accent = theme.accent
    let color = Int(theme.accent).flatMap { CellColor.StandardColor(rawValue: UInt8($0 - 30)) }
    self.screen.accent = CellStyle(foreground: color.map(CellColor.standard), attributes: .bold)
  }

  /// The ANSI colour code of the current theme's accent.
  private(set) var accent = "36"

  /// Refreshes the labels that describe the app itself.
  func refreshStatus(frame: Int) {
    header.text = "Scopes · KeyedStore · Lineage · Invalidation · ReactiveCore"
    scopes.text = "features: \(features.state) · downloads: \(downloads.state)"
  }
}
