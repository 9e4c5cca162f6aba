// The control characters a backend must never write as themselves, shared by the
// terminal backend's tests and the HTML backend's, which check them against one table.

/// Characters that would act on a terminal if written as themselves.
public let controlCharacters: [(name: String, character: Character)] = [
  ("NUL", "\u{0}"), ("BEL", "\u{7}"), ("BS", "\u{8}"), ("TAB", "\t"), ("LF", "\n"),
  ("VT", "\u{B}"), ("FF", "\u{C}"), ("CR", "\r"), ("CR LF", "\r\n"), ("SO", "\u{E}"),
  ("SI", "\u{F}"), ("CAN", "\u{18}"), ("SUB", "\u{1A}"), ("ESC", "\u{1B}"), ("US", "\u{1F}"),
  ("DEL", "\u{7F}"), ("PAD", "\u{80}"), ("IND", "\u{84}"), ("NEL", "\u{85}"),
  ("RI", "\u{8D}"), ("SS3", "\u{8F}"), ("DCS", "\u{90}"), ("SOS", "\u{98}"),
  ("CSI", "\u{9B}"), ("ST", "\u{9C}"), ("OSC", "\u{9D}"), ("PM", "\u{9E}"), ("APC", "\u{9F}"),
  ("LS", "\u{2028}"), ("PS", "\u{2029}"), ("LRE", "\u{202A}"), ("RLE", "\u{202B}"),
  ("PDF", "\u{202C}"), ("LRO", "\u{202D}"),
  ("RLO", "\u{202E}"), ("LRI", "\u{2066}"), ("RLI", "\u{2067}"), ("FSI", "\u{2068}"),
  ("PDI", "\u{2069}"),
]

/// Characters next to those ranges, which show as themselves.
public let printableNeighbours: [(name: String, character: Character)] = [
  ("space", " "), ("tilde", "~"), ("NBSP", "\u{A0}"), ("inverted !", "¡"), ("é", "é"),
  ("e + acute", "e\u{301}"), ("box", "─"), ("hyphen", "‐"),
  ("left-to-right mark area", "\u{2070}"), ("narrow NBSP", "\u{202F}"), ("ellipsis", "…"),
  ("hyphenation point", "\u{2027}"),
]
