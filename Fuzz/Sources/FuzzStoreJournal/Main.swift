/// libFuzzer's driver, which parses the command line and runs the target.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point SwiftPM links an executable target through (`main` is defined as an
/// alias of `<Target>_main`): it hands the command line to libFuzzer's driver.
@_cdecl("FuzzStoreJournal_main")
func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var argc = argc
  var argv = argv
  return runDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzzTarget(data, size)
  }
}
