/// A value that encodes to JSON.
struct Point: Codable, Equatable {
  var x: Int
}
