import Ripple

/// The app state, declared once as typed keys.
extension StoreKey where Value == Int {
  static let counter = StoreKey("counter")
  static let frame = StoreKey("frame")
}

extension StoreKey where Value == Double {
  static let progress = StoreKey("progress")
}

extension StoreKey where Value == Bool {
  static let darkMode = StoreKey("darkMode")
  static let downloadsEnabled = StoreKey("downloadsEnabled")
}

extension StoreKey where Value == String {
  static let message = StoreKey("message")
}
