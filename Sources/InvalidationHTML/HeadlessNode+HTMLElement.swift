import Invalidation

extension HeadlessNode {
  /// The element this node becomes in ``HTMLRenderer`` output: ``HTMLElement/div`` by
  /// default, or a landmark, heading, paragraph or list from the fixed vocabulary of
  /// ``HTMLElement``, so that a page has headings and landmarks. Other backends ignore it.
  ///
  ///     let title = HeadlessNode(name: "title", frame: Rect(x: 0, y: 0, width: 40, height: 1))
  ///     title.htmlElement = .h1
  public var htmlElement: HTMLElement {
    get { backendValues[ObjectIdentifier(HTMLElement.self)] as? HTMLElement ?? .div }
    set { backendValues[ObjectIdentifier(HTMLElement.self)] = newValue == .div ? nil : newValue }
  }
}
