import Ripple

// A port of ViewInvalidating's README to Ripple: UIView becomes a RenderNode.

final class MyView: HeadlessNode {
  // Calls setNeedsLayout()
  @ViewInvalidating(.layout) var cornerRadius: Double = 12.0
  // Calls setNeedsLayout() then setNeedsUpdateConstraints()
  @ViewInvalidating(.layout, .constraints) var heightConstraintValue: Double = 200.0
  // Calls setNeedsLayout() then setNeedsUpdateConstraints() then invalidateIntrinsicContentSize()
  @ViewInvalidating(.layout, .constraints, .intrinsicContentSize) var magicProperty: Double = 1234.0
  // Calls setNeedsLayout() and Focus.invalidate(self)
  @ViewInvalidating(.layout, .focus) var customProperty: Double = 1.0

  override func layout() { print("  layout() ran once") }
}

// Adding custom invalidators, exactly as the seed shows (Swift 5.5+ form).
extension Invalidations {
  struct Focus: RenderNodeInvalidating {
    static let focus: Self = .init()

    func invalidate(node: any RenderNode) {
      print("  Focus.invalidate(\(type(of: node)))")
    }
  }
}

extension RenderNodeInvalidating where Self == Invalidations.Focus {
  static var focus: Self { .focus }
}

let view = MyView(frame: Rect(x: 0, y: 0, width: 10, height: 2))
view.renderPass()
let trace = view.invalidations.sink { print("  invalidated: \($0)") }

print("cornerRadius = 16")
view.cornerRadius = 16
print("heightConstraintValue = 180")
view.heightConstraintValue = 180
print("magicProperty = 42")
view.magicProperty = 42
print("customProperty = 2")
view.customProperty = 2
print("cornerRadius = 16 again (equal: no invalidation)")
view.cornerRadius = 16

print("render pass after all of that:")
let report = view.renderPass()
print("  \(report)")
trace.cancel()
