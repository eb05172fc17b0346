// MediaPipeTasksVision's Objective-C headers import Foundation, so `import MediaPipeTasksVision`
// makes `Bundle`, `NSObject` and the rest of Foundation visible to an app's Swift code; the iOS
// guides rely on it (`Bundle.main.path(forResource:ofType:)`, `class …: NSObject, …Delegate`).
// `import VisionTasks` does the same, so their code compiles after changing only the import.
@_exported import Foundation
