/// A ``CellStyle`` in one 64-bit word, as a ``TextCanvas`` stores it per cell: so that
/// cells are compared, copied and composited as plain integers.
///
/// Each color takes 27 bits (a 3-bit kind, then 24 bits of payload: the standard color,
/// the palette index or red, green and blue), the attributes the 8 bits above both.
/// Packing is exact: `PackedCellStyle(style).style == style` for every style.
@frozen @usableFromInline
package struct PackedCellStyle: Hashable, Sendable {
  /// The bits.
  @usableFromInline
  package var raw: UInt64

  /// The plain style.
  @inlinable package static var plain: PackedCellStyle { PackedCellStyle(raw: 0) }

  @inlinable
  package init(raw: UInt64) { self.raw = raw }

  /// Packs `style`.
  @inlinable
  package init(_ style: CellStyle) {
    raw =
      Self.pack(style.foreground) | Self.pack(style.background) << 27
      | UInt64(style.attributes.rawValue) << 54
  }

  /// The style it packs.
  @inlinable
  package var style: CellStyle {
    CellStyle(
      foreground: Self.unpack(raw & Self.colorMask),
      background: Self.unpack(raw >> 27 & Self.colorMask),
      attributes: CellAttributes(rawValue: UInt8(truncatingIfNeeded: raw >> 54)))
  }

  @inlinable
  static var colorMask: UInt64 { 1 << 27 - 1 }

  @inlinable
  static func pack(_ color: CellColor?) -> UInt64 {
    switch color {
    case nil: 0
    case .standard(let standard)?: 1 << 24 | UInt64(standard.rawValue)
    case .bright(let standard)?: 2 << 24 | UInt64(standard.rawValue)
    case .palette(let index)?: 3 << 24 | UInt64(index)
    case .rgb(let red, let green, let blue)?:
      4 << 24 | UInt64(red) << 16 | UInt64(green) << 8 | UInt64(blue)
    }
  }

  @inlinable
  static func unpack(_ bits: UInt64) -> CellColor? {
    let payload = UInt8(truncatingIfNeeded: bits)
    switch bits >> 24 {
    case 1: return .standard(CellColor.StandardColor(rawValue: payload & 7) ?? .black)
    case 2: return .bright(CellColor.StandardColor(rawValue: payload & 7) ?? .black)
    case 3: return .palette(payload)
    case 4:
      return .rgb(
        red: UInt8(truncatingIfNeeded: bits >> 16), green: UInt8(truncatingIfNeeded: bits >> 8),
        blue: payload)
    default: return nil
    }
  }
}
