import ReactiveCore

extension Publisher where Failure == Never {
  /// Assigns each value to properties of two objects, holding both strongly, as
  /// CombineExt's `assign(to:on:and:on:)` does; the roots need not be classes, only
  /// reachable by reference-writable key paths.
  ///
  ///     names.assign(to: \.text, on: titleLabel, and: \.title, on: window)
  ///
  /// - Parameters:
  ///   - keyPath1: The first property.
  ///   - object1: The object that owns the first property.
  ///   - keyPath2: The second property.
  ///   - object2: The object that owns the second property.
  /// - Returns: A cancellable that ends the assignments.
  public func assign<Root1, Root2>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2
  ) -> AnyCancellable {
    sink {
      object1[keyPath: keyPath1] = $0
      object2[keyPath: keyPath2] = $0
    }
  }

  /// Assigns each value to properties of three objects, holding them strongly, as
  /// CombineExt's `assign(to:on:and:on:and:on:)` does.
  ///
  ///     names.assign(to: \.text, on: label, and: \.title, on: window, and: \.name, on: model)
  ///
  /// - Parameters:
  ///   - keyPath1: The first property.
  ///   - object1: The object that owns the first property.
  ///   - keyPath2: The second property.
  ///   - object2: The object that owns the second property.
  ///   - keyPath3: The third property.
  ///   - object3: The object that owns the third property.
  /// - Returns: A cancellable that ends the assignments.
  public func assign<Root1, Root2, Root3>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
    and keyPath3: ReferenceWritableKeyPath<Root3, Output>, on object3: Root3
  ) -> AnyCancellable {
    sink {
      object1[keyPath: keyPath1] = $0
      object2[keyPath: keyPath2] = $0
      object3[keyPath: keyPath3] = $0
    }
  }
}
