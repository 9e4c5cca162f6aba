import Invalidation
import InvalidationTerminal

/// Byte sequences terminals send for keys, as fixtures for the key parser.
///
/// - xterm: its terminfo entry (`infocmp -x xterm-256color`: kf1–kf12, khome, kUP5,
///   kRIT3, kDC5…) and its documented modifier encoding (`CSI 1 ; m X`, `CSI n ; m ~`).
/// - VTE (GNOME Terminal, Tilix…): sends xterm's sequences (its TERM is xterm-256color)
///   but Home and End in normal cursor mode as `CSI H` / `CSI F`, and F1–F4 with
///   modifiers as `CSI 1 ; m P`.
/// - tmux: captured from tmux 3.x with `tmux send-keys F1 M-x BTab C-Right …` into
///   `od -An -tx1` in a pane (TERM=tmux-256color): Home `CSI 1 ~`, End `CSI 4 ~`.
/// - the Linux console: its terminfo entry (`infocmp linux`): F1–F5 `CSI [ A`…`CSI [ E`,
///   back-tab `ESC Tab`.
/// Bracketed paste and SGR mouse reports are the same in all four (xterm's control
/// sequences documentation, modes 2004 and 1006).
let keySequenceFixtures: [(terminal: String, bytes: String, key: TerminalKey)] = [
  // xterm
  ("xterm", "\u{1B}OP", .function(1)),
  ("xterm", "\u{1B}OQ", .function(2)),
  ("xterm", "\u{1B}OR", .function(3)),
  ("xterm", "\u{1B}OS", .function(4)),
  ("xterm", "\u{1B}[15~", .function(5)),
  ("xterm", "\u{1B}[17~", .function(6)),
  ("xterm", "\u{1B}[18~", .function(7)),
  ("xterm", "\u{1B}[19~", .function(8)),
  ("xterm", "\u{1B}[20~", .function(9)),
  ("xterm", "\u{1B}[21~", .function(10)),
  ("xterm", "\u{1B}[23~", .function(11)),
  ("xterm", "\u{1B}[24~", .function(12)),
  ("xterm", "\u{1B}[1;2P", .modified(.function(1), .shift)),
  ("xterm", "\u{1B}[15;5~", .modified(.function(5), .control)),
  ("xterm", "\u{1B}[24;3~", .modified(.function(12), .alt)),
  ("xterm", "\u{1B}[Z", .modified(.tab, .shift)),
  ("xterm", "\u{1B}OH", .home),
  ("xterm", "\u{1B}OF", .end),
  ("xterm", "\u{1B}OA", .up),
  ("xterm", "\u{1B}[2~", .insert),
  ("xterm", "\u{1B}[3~", .delete),
  ("xterm", "\u{1B}[5~", .pageUp),
  ("xterm", "\u{1B}[6~", .pageDown),
  ("xterm", "\u{1B}[1;5A", .modified(.up, .control)),
  ("xterm", "\u{1B}[1;2B", .modified(.down, .shift)),
  ("xterm", "\u{1B}[1;3C", .modified(.right, .alt)),
  ("xterm", "\u{1B}[1;6D", .modified(.left, [.control, .shift])),
  ("xterm", "\u{1B}[1;5H", .modified(.home, .control)),
  ("xterm", "\u{1B}[1;2F", .modified(.end, .shift)),
  ("xterm", "\u{1B}[2;3~", .modified(.insert, .alt)),
  ("xterm", "\u{1B}[3;5~", .modified(.delete, .control)),
  ("xterm", "\u{1B}[5;2~", .modified(.pageUp, .shift)),
  ("xterm", "\u{1B}[6;7~", .modified(.pageDown, [.control, .alt])),
  ("xterm", "\u{1B}x", .modified(.character("x"), .alt)),
  ("xterm", "\u{1B}X", .modified(.character("X"), .alt)),
  ("xterm", "\u{1B}é", .modified(.character("é"), .alt)),
  ("xterm", "\u{1B}\u{1}", .modified(.control("a"), .alt)),
  ("xterm", "\u{1B}\u{7F}", .modified(.backspace, .alt)),
  ("xterm", "\u{1B}\r", .modified(.enter, .alt)),
  // VTE
  ("VTE", "\u{1B}[H", .home),
  ("VTE", "\u{1B}[F", .end),
  ("VTE", "\u{1B}[1;5P", .modified(.function(1), .control)),
  ("VTE", "\u{1B}[1;2S", .modified(.function(4), .shift)),
  ("VTE", "\u{1B}[1;5C", .modified(.right, .control)),
  ("VTE", "\u{1B}[3;2~", .modified(.delete, .shift)),
  ("VTE", "\u{1B}[Z", .modified(.tab, .shift)),
  ("VTE", "\u{1B}d", .modified(.character("d"), .alt)),
  // tmux (captured)
  ("tmux", "\u{1B}OP", .function(1)),
  ("tmux", "\u{1B}OQ", .function(2)),
  ("tmux", "\u{1B}[15~", .function(5)),
  ("tmux", "\u{1B}[24~", .function(12)),
  ("tmux", "\u{1B}x", .modified(.character("x"), .alt)),
  ("tmux", "\u{1B}[Z", .modified(.tab, .shift)),
  ("tmux", "\u{1B}[1;5C", .modified(.right, .control)),
  ("tmux", "\u{1B}[1;2A", .modified(.up, .shift)),
  ("tmux", "\u{1B}[1;3D", .modified(.left, .alt)),
  ("tmux", "\u{1B}[1~", .home),
  ("tmux", "\u{1B}[4~", .end),
  ("tmux", "\u{1B}[5~", .pageUp),
  ("tmux", "\u{1B}[6~", .pageDown),
  ("tmux", "\u{1B}[2~", .insert),
  ("tmux", "\u{1B}[3~", .delete),
  ("tmux", "\u{1B}[1;5H", .modified(.home, .control)),
  ("tmux", "\u{1B}[1;2F", .modified(.end, .shift)),
  ("tmux", "\u{1B}[3;5~", .modified(.delete, .control)),
  ("tmux", "\u{1B}[1;3P", .modified(.function(1), .alt)),
  ("tmux", "\u{1B}[15;2~", .modified(.function(5), .shift)),
  // the Linux console
  ("linux", "\u{1B}[[A", .function(1)),
  ("linux", "\u{1B}[[B", .function(2)),
  ("linux", "\u{1B}[[C", .function(3)),
  ("linux", "\u{1B}[[D", .function(4)),
  ("linux", "\u{1B}[[E", .function(5)),
  ("linux", "\u{1B}[17~", .function(6)),
  ("linux", "\u{1B}[21~", .function(10)),
  ("linux", "\u{1B}[23~", .function(11)),
  ("linux", "\u{1B}[24~", .function(12)),
  ("linux", "\u{1B}[1~", .home),
  ("linux", "\u{1B}[4~", .end),
  ("linux", "\u{1B}[2~", .insert),
  ("linux", "\u{1B}[3~", .delete),
  ("linux", "\u{1B}[A", .up),
  ("linux", "\u{1B}\t", .modified(.tab, .shift)),
  // every terminal: bracketed paste and SGR mouse
  ("any", "\u{1B}[200~hello\r\nworld\u{1B}[201~", .paste("hello\r\nworld")),
  ("any", "\u{1B}[200~買い物 🛒 \u{1B}[A q\u{1B}[201~", .paste("買い物 🛒 \u{1B}[A q")),
  ("any", "\u{1B}[200~\u{1B}[201~", .paste("")),
  (
    "any", "\u{1B}[<0;10;5M",
    .mouse(TerminalMouseEvent(kind: .press, button: .left, point: Point(x: 9, y: 4)))
  ),
  (
    "any", "\u{1B}[<0;10;5m",
    .mouse(TerminalMouseEvent(kind: .release, button: .left, point: Point(x: 9, y: 4)))
  ),
  (
    "any", "\u{1B}[<2;1;1M",
    .mouse(TerminalMouseEvent(kind: .press, button: .right, point: Point(x: 0, y: 0)))
  ),
  (
    "any", "\u{1B}[<32;11;5M",
    .mouse(TerminalMouseEvent(kind: .drag, button: .left, point: Point(x: 10, y: 4)))
  ),
  (
    "any", "\u{1B}[<64;3;4M",
    .mouse(TerminalMouseEvent(kind: .scrollUp, button: .none, point: Point(x: 2, y: 3)))
  ),
  (
    "any", "\u{1B}[<65;3;4M",
    .mouse(TerminalMouseEvent(kind: .scrollDown, button: .none, point: Point(x: 2, y: 3)))
  ),
  (
    "any", "\u{1B}[<17;300;120M",
    .mouse(
      TerminalMouseEvent(
        kind: .press, button: .middle, point: Point(x: 299, y: 119), modifiers: .control))
  ),
]
