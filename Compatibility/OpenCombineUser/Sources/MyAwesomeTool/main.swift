import Foundation
import MyAwesomePackage
import OpenCombineShim

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Runs each spelling once and exits non-zero on the first surprise.
func check(_ condition: Bool, _ what: String) {
  guard condition else {
    print("FAILED: \(what)")
    exit(1)
  }
  print("ok: \(what)")
}

var cancellables = Set<AnyCancellable>()

var count: [Int] = []
Cache.cachedCount().sink { count.append($0) }.store(in: &cancellables)
check(count == [3], "Result<Int, Never>.OCombine.Publisher")

var names: [String] = []
Cache.cachedName("ripple").sink { names.append($0) }.store(in: &cancellables)
Cache.cachedName(nil).sink { names.append($0) }.store(in: &cancellables)
check(names == ["ripple"], "Optional<String>.OCombine.Publisher")

var failure: URLError?
Cache.failing().sink(
  receiveCompletion: {
    if case .failure(let error) = $0 { failure = error }
  }, receiveValue: { _ in }
).store(in: &cancellables)
check(failure?.code == .badURL, "Result<Int, URLError>.OCombine.Publisher fails")

let queue = DispatchQueue(label: "MyAwesomeTool.delivery")
let debounced = DispatchSemaphore(value: 0)
var lastDebounced: Int?
let subject = PassthroughSubject<Int, Never>()
Schedulers.debounced(subject, on: queue).sink {
  lastDebounced = $0
  debounced.signal()
}.store(in: &cancellables)
subject.send(1)
subject.send(2)
check(debounced.wait(timeout: .now() + 60) == .success, "debounce on DispatchQueue.ocombine")
queue.sync { check(lastDebounced == 2, "debounce keeps the last value") }

let operationQueue = OperationQueue()
var onOperationQueue: [Int] = []
Schedulers.onOperationQueue(Just(4), operationQueue).sink { onOperationQueue.append($0) }
  .store(in: &cancellables)
operationQueue.waitUntilAllOperationsAreFinished()
check(onOperationQueue == [4], "receive(on: OperationQueue.OCombine(queue))")

var onRunLoop: [Int] = []
Schedulers.onRunLoop(Just(5)).sink { onRunLoop.append($0) }.store(in: &cancellables)
let giveUp = Date().addingTimeInterval(60)
while onRunLoop.isEmpty && Date() < giveUp {
  RunLoop.main.run(until: Date().addingTimeInterval(0.01))
}
check(onRunLoop == [5], "receive(on: RunLoop.main.ocombine)")

// A refused connection (nothing listens on port 1): every spelling fails with a URLError.
let client = APIClient(
  baseURL: URL(string: "http://127.0.0.1:1/")!, deliveryQueue: queue)
let requests: [(String, AnyPublisher<Data, URLError>)] = [
  ("URLSession.OCombine(session).dataTaskPublisher(for:)", client.data(at: "users")),
  (
    "session.ocombine.dataTaskPublisher(for:)",
    client.response(at: "users").map(\.data).eraseToAnyPublisher()
  ),
  (
    "session.dataTaskPublisher(for:)",
    client.plainResponse(at: "users").map(\.data).eraseToAnyPublisher()
  ),
]
for (spelling, publisher) in requests {
  let done = DispatchSemaphore(value: 0)
  var error: URLError?
  publisher.sink(
    receiveCompletion: {
      if case .failure(let failure) = $0 { error = failure }
      done.signal()
    }, receiveValue: { _ in }
  ).store(in: &cancellables)
  check(done.wait(timeout: .now() + 60) == .success && error != nil, spelling)
}
print("all OpenCombine spellings work")
