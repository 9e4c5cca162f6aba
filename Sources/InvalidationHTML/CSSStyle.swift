import Invalidation

/// CSS for a `CellStyle`: only digits, hex and fixed keywords ever reach the output.
enum CSSStyle {
  /// `color:#…;background-color:#…;font-weight:bold;…`
  static func declarations(for style: CellStyle) -> String {
    var foreground = style.foreground
    var background = style.background
    if style.attributes.contains(.reverse) {
      swap(&foreground, &background)
      foreground = foreground ?? .standard(.black)
      background = background ?? .standard(.white)
    }
    var parts: [String] = []
    if let foreground { parts.append("color:\(hex(foreground))") }
    if let background { parts.append("background-color:\(hex(background))") }
    if style.attributes.contains(.bold) { parts.append("font-weight:bold") }
    if style.attributes.contains(.dim) { parts.append("opacity:0.6") }
    if style.attributes.contains(.italic) { parts.append("font-style:italic") }
    if style.attributes.contains(.underline) { parts.append("text-decoration:underline") }
    return parts.joined(separator: ";")
  }

  /// xterm's default palette for the 16 standard and bright colours.
  private static let basic: [UInt32] = [
    0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
    0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
  ]

  static func hex(_ color: CellColor) -> String {
    let value: UInt32
    switch color {
    case .standard(let base): value = basic[Int(base.rawValue)]
    case .bright(let base): value = basic[Int(base.rawValue) + 8]
    case .rgb(let red, let green, let blue):
      value = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    case .palette(let index):
      switch index {
      case 0..<16: value = basic[Int(index)]
      case 16..<232:
        let cube = Int(index) - 16
        let level = { (step: Int) -> UInt32 in step == 0 ? 0 : UInt32(55 + step * 40) }
        value = level(cube / 36) << 16 | level(cube / 6 % 6) << 8 | level(cube % 6)
      default:
        let grey = UInt32(8 + (Int(index) - 232) * 10)
        value = grey << 16 | grey << 8 | grey
      }
    }
    let digits = String(value, radix: 16)
    return "#" + String(repeating: "0", count: 6 - digits.count) + digits
  }
}
