// This file compiles unchanged against Apple's Combine: replace this import with
// `import Combine`.
import Ripple

struct Weather {
  let city: String
  let celsius: Double
}

final class WeatherModel: ObservableObject {
  @Published var temperature = 0.0
}

let readings = PassthroughSubject<Weather, Never>()
var cancellables = Set<AnyCancellable>()

readings
  .filter { $0.city == "Oslo" }
  .map(\.celsius)
  .removeDuplicates()
  .scan((count: 0, total: 0.0)) { ($0.count + 1, $0.total + $1) }
  .map { $0.total / Double($0.count) }
  .sink { print("Oslo running average: \($0)") }
  .store(in: &cancellables)

let model = WeatherModel()
model.objectWillChange.sink { print("model will change") }.store(in: &cancellables)
readings.map(\.celsius).assign(to: &model.$temperature)

for reading in [
  Weather(city: "Oslo", celsius: 4), Weather(city: "Rome", celsius: 18),
  Weather(city: "Oslo", celsius: 4), Weather(city: "Oslo", celsius: 8),
] {
  readings.send(reading)
}
print("model.temperature = \(model.temperature)")

let future = Future<Int, Never> { promise in promise(.success(42)) }
future.sink { print("future delivered \($0)") }.store(in: &cancellables)

[1, 2, 3, 4, 5].publisher
  .collect(2)
  .sink(receiveCompletion: { print("completion: \($0)") }, receiveValue: { print("batch: \($0)") })
  .store(in: &cancellables)

let subject = CurrentValueSubject<String, Never>("hello")
subject.sink { print("current value: \($0)") }.store(in: &cancellables)
subject.value = "world"
subject.send(completion: .finished)
