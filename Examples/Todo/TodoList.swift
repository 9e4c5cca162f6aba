import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One to-do item, as the store file keeps it.
struct TodoItem: Codable, Equatable, Sendable {
  /// Identifies the item across processes, so that toggling or deleting it never hits
  /// another item that a second instance inserted meanwhile.
  var id: String
  var title: String
  var isDone = false
}

extension StoreKey where Value == [TodoItem] {
  /// Every item, in the order they were added.
  static let todoItems = StoreKey("items")
}

/// Which items the list shows.
enum TodoFilter: String, CaseIterable {
  case all, active, done

  /// The next filter, for the key that cycles them.
  var next: TodoFilter {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }

  func includes(_ item: TodoItem) -> Bool {
    switch self {
    case .all: true
    case .active: !item.isDone
    case .done: item.isDone
    }
  }
}

/// The list's operations. Each is one atomic update of the store file, made under its
/// lock against what the file holds now, so two instances open at once never lose each
/// other's changes.
struct TodoList: Sendable {
  let store: Store

  var items: [TodoItem] { store[.todoItems] ?? [] }

  func add(_ title: String) {
    let trimmed = title.trimmingSpaces
    guard !trimmed.isEmpty else { return }
    let item = TodoItem(id: Self.newID(), title: trimmed)
    store.update([], for: .todoItems) { $0.append(item) }
  }

  func toggle(id: String) {
    store.update([], for: .todoItems) { items in
      if let index = items.firstIndex(where: { $0.id == id }) { items[index].isDone.toggle() }
    }
  }

  func delete(id: String) {
    store.update([], for: .todoItems) { $0.removeAll { $0.id == id } }
  }

  /// A random identifier: 64 bits as hexadecimal.
  private static func newID() -> String {
    String(UInt64.random(in: .min ... .max), radix: 16)
  }
}

extension String {
  /// The string without leading and trailing spaces.
  var trimmingSpaces: String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}

/// Where the list lives: `--file PATH`, else `$TODO_FILE`, else the usual settings folder.
func todoFilePath(_ arguments: inout [String]) throws -> String {
  if let index = arguments.firstIndex(of: "--file"), index + 1 < arguments.count {
    let path = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
    return path
  }
  if let path = getenv("TODO_FILE") { return String(cString: path) }
  return try Persistence.defaultPath(app: "ripple-todo", fileName: "todo.json")
}
