import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A persistent to-do list on a store file, usable by two instances at once.
//
//   swift run Todo                    full-screen, in a terminal
//   swift run Todo add "buy milk"     adds an item (from scripts, or with output piped)
//   swift run Todo list               prints the items
//   swift run Todo --file PATH …      another list (or set TODO_FILE)

var arguments = Array(CommandLine.arguments.dropFirst())
let store: Store
do {
  let path = try todoFilePath(&arguments)
  store = try Store(persistence: .file(path: path))
} catch {
  print("todo: \(error)")
  exit(1)
}
let todo = TodoList(store: store)

func printItems() {
  for item in todo.items { print(item.isDone ? "[x] \(item.title)" : "[ ] \(item.title)") }
  print(todo.items.count == 1 ? "1 item" : "\(todo.items.count) items")
}

switch arguments.first {
case "add":
  for title in arguments.dropFirst() { todo.add(title) }
  printItems()
case "list":
  printItems()
case nil:
  do {
    try TodoApp(todo: todo).run()
  } catch {
    // Not a terminal (output piped, say): print the list instead.
    printItems()
  }
default:
  print("usage: Todo [--file PATH] [add TITLE… | list]")
  exit(2)
}
