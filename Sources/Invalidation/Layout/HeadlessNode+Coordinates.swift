extension Rect {
  /// Whether the point is one of the rectangle's cells: on or right of its left edge and
  /// left of its right edge, on or below its top and above its bottom.
  ///
  ///     Rect(x: 2, y: 1, width: 3, height: 1).contains(Point(x: 4, y: 1))  // true
  ///     Rect(x: 2, y: 1, width: 3, height: 1).contains(Point(x: 5, y: 1))  // false
  ///
  /// - Parameter point: The point.
  /// - Returns: Whether it is inside.
  public func contains(_ point: Point) -> Bool {
    point.x >= origin.x && point.y >= origin.y
      && point.x.saturatingSubtract(origin.x) < size.width
      && point.y.saturatingSubtract(origin.y) < size.height
  }
}

extension HeadlessNode {
  /// The node's origin in its root's coordinates: the sum of its own and its ancestors'
  /// frame origins. A terminal's mouse events are in the root's coordinates.
  public var originInRoot: Point {
    var point = Point.zero
    var node: HeadlessNode? = self
    while let current = node {
      point.x = point.x.saturatingAdd(current.frame.origin.x)
      point.y = point.y.saturatingAdd(current.frame.origin.y)
      node = current.parent
    }
    return point
  }

  /// Converts a point in the root's coordinates (where a terminal's mouse events are) to
  /// this node's own.
  ///
  ///     case .mouse(let event): if node.bounds.contains(node.convertFromRoot(event.point)) { … }
  ///
  /// - Parameter point: A point in the root's coordinates.
  /// - Returns: The same point in this node's coordinates.
  public func convertFromRoot(_ point: Point) -> Point {
    let origin = originInRoot
    return Point(x: point.x.saturatingSubtract(origin.x), y: point.y.saturatingSubtract(origin.y))
  }
}
