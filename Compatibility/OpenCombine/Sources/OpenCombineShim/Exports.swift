// `import OpenCombineShim` brings every module above. OpenCombine's shim re-exports Apple's
// Combine where it exists; this one always brings Ripple's modules, so the code behaves
// the same on every platform.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
