import Dispatch
import Ripple

/// The interactive app: keys edit the list, and the list follows the store file, so
/// that a second instance's changes show up here within milliseconds.
@MainActor
final class TodoApp {
  enum Mode { case browsing, typing }

  let todo: TodoList
  let screen = TodoScreen()
  let app: TerminalApp
  private var items: [TodoItem] = []
  private var shown: [TodoItem] = []
  private var filter = TodoFilter.all
  private var mode = Mode.browsing
  private var note = ""
  private var subscriptions = Set<AnyCancellable>()

  init(todo: TodoList) throws(TerminalError) {
    self.todo = todo
    app = try TerminalApp(root: screen, reportsMouse: true)
    app.onKey = { [unowned self] key in handle(key) }
    // Every change is written (and synced) as it happens; the flush only reports a
    // failure that happened in the background.
    app.willQuit = { try? todo.store.flush() }
    todo.store.publisher(for: .todoItems, initial: true)
      .receive(on: DispatchQueue.main)
      .sink { [unowned self] mutation in
        MainActor.assumeIsolated {
          note = mutation.origin == .anotherProcess ? "updated elsewhere" : ""
          show(mutation.newValue)
        }
      }
      .store(in: &subscriptions)
    todo.store.errors.receive(on: DispatchQueue.main)
      .sink { [unowned self] error in
        MainActor.assumeIsolated {
          note = "not saved: \(error)"
          refreshHeader()
        }
      }
      .store(in: &subscriptions)
    setMode(.browsing)
    show(todo.items)
  }

  func run() -> Never { app.run() }

  // MARK: Keys

  private func handle(_ key: TerminalKey) {
    switch (mode, key) {
    case (.browsing, .character("a")), (.browsing, .character("i")), (_, .tab):
      setMode(mode == .typing ? .browsing : .typing)
    case (.browsing, .character(" ")), (.browsing, .enter):
      if let item = selectedItem { todo.toggle(id: item.id) }
    case (.browsing, .character("d")), (.browsing, .delete):
      if let item = selectedItem { todo.delete(id: item.id) }
    case (.browsing, .character("f")):
      filter = filter.next
      show(items)
    case (.typing, .enter):
      todo.add(screen.input.text)
      screen.input.text = ""
    case (.typing, .escape):
      setMode(.browsing)
    default:
      break
    }
  }

  private var selectedItem: TodoItem? { screen.list.selection.map { shown[$0] } }

  private func setMode(_ newMode: Mode) {
    mode = newMode
    let typing = newMode == .typing
    app.focus = typing ? screen.input : screen.list
    screen.input.showsCursor = typing
    screen.list.showsSelection = !typing
    screen.help.text =
      typing
      ? "enter adds · esc back to the list · ctrl-c quits"
      : "a add · space toggle · d delete · f filter · q quit"
  }

  // MARK: Showing the list

  /// Shows `newItems` through the filter, keeping the selected item selected.
  private func show(_ newItems: [TodoItem]) {
    let selectedID = selectedItem?.id
    items = newItems
    shown = newItems.filter(filter.includes)
    screen.list.items = shown.map { item in
      item.isDone
        ? ListView.Item("[x] \(item.title)", style: CellStyle(attributes: .dim))
        : ListView.Item("[ ] \(item.title)")
    }
    if let selectedID, let index = shown.firstIndex(where: { $0.id == selectedID }) {
      screen.list.selection = index
    }
    refreshHeader()
  }

  private func refreshHeader() {
    let done = items.filter(\.isDone).count
    let count = items.count == 1 ? "1 item" : "\(items.count) items"
    screen.panel.title = "Todo · \(filter.rawValue)"
    screen.header.text =
      "\(count), \(done) done" + (note.isEmpty ? "" : " · \(note)")
  }
}
