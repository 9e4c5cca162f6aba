import ReactiveCore

/// How `assign(to:on:ownership:)` holds the object it assigns to, as CombineExt names it.
public enum ObjectOwnership: Sendable {
  /// Holds the object strongly until the subscription ends (Combine's `assign(to:on:)`).
  case strong
  /// Holds the object weakly: values that arrive after it is gone are dropped.
  case weak
  /// Holds the object unowned: the object must outlive the subscription.
  case unowned
}

extension Publisher where Failure == Never {
  /// Assigns each value to a property of an object, holding the object as `ownership`
  /// says, as CombineExt's `assign(to:on:ownership:)` does; `.weak` avoids the retain
  /// cycle of `assign(to: \.x, on: self)`.
  ///
  ///     model.$title.assign(to: \.title, on: self, ownership: .weak).store(in: &bag)
  ///
  /// - Parameters:
  ///   - keyPath: The property to assign.
  ///   - object: The object that owns the property.
  ///   - ownership: How the subscription holds `object`; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments.
  public func assign<Root: AnyObject>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong: assign(to: keyPath, on: object)
    case .weak: sink { [weak object] in object?[keyPath: keyPath] = $0 }
    case .unowned: sink { [unowned object] in object[keyPath: keyPath] = $0 }
    }
  }

  /// Assigns each value to properties of two objects, as CombineExt's
  /// `assign(to:on:and:on:ownership:)` does.
  ///
  /// - Parameters:
  ///   - keyPath1: The first property.
  ///   - object1: The object that owns the first property.
  ///   - keyPath2: The second property.
  ///   - object2: The object that owns the second property.
  ///   - ownership: How the subscription holds the objects; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments.
  public func assign<Root1: AnyObject, Root2: AnyObject>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong:
      sink {
        object1[keyPath: keyPath1] = $0
        object2[keyPath: keyPath2] = $0
      }
    case .weak:
      sink { [weak object1, weak object2] in
        object1?[keyPath: keyPath1] = $0
        object2?[keyPath: keyPath2] = $0
      }
    case .unowned:
      sink { [unowned object1, unowned object2] in
        object1[keyPath: keyPath1] = $0
        object2[keyPath: keyPath2] = $0
      }
    }
  }

  /// Assigns each value to properties of three objects, as CombineExt's
  /// `assign(to:on:and:on:and:on:ownership:)` does.
  ///
  /// - Parameters:
  ///   - keyPath1: The first property.
  ///   - object1: The object that owns the first property.
  ///   - keyPath2: The second property.
  ///   - object2: The object that owns the second property.
  ///   - keyPath3: The third property.
  ///   - object3: The object that owns the third property.
  ///   - ownership: How the subscription holds the objects; `.strong` by default.
  /// - Returns: A cancellable that ends the assignments.
  public func assign<Root1: AnyObject, Root2: AnyObject, Root3: AnyObject>(
    to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
    and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
    and keyPath3: ReferenceWritableKeyPath<Root3, Output>, on object3: Root3,
    ownership: ObjectOwnership = .strong
  ) -> AnyCancellable {
    switch ownership {
    case .strong:
      sink {
        object1[keyPath: keyPath1] = $0
        object2[keyPath: keyPath2] = $0
        object3[keyPath: keyPath3] = $0
      }
    case .weak:
      sink { [weak object1, weak object2, weak object3] in
        object1?[keyPath: keyPath1] = $0
        object2?[keyPath: keyPath2] = $0
        object3?[keyPath: keyPath3] = $0
      }
    case .unowned:
      sink { [unowned object1, unowned object2, unowned object3] in
        object1[keyPath: keyPath1] = $0
        object2[keyPath: keyPath2] = $0
        object3[keyPath: keyPath3] = $0
      }
    }
  }
}
