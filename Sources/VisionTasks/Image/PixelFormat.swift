import Imaging

/// The layout of raw 8-bit pixels given to
/// ``MPImage/init(pixels:width:height:bytesPerRow:format:orientation:)-(UnsafeRawBufferPointer,_,_,_,_,_)``.
///
/// This is `Imaging.PixelFormat`, re-exported so that `import VisionTasks` is enough to use it.
public typealias PixelFormat = Imaging.PixelFormat
