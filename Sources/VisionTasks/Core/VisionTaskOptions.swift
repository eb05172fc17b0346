/// What the ``TaskShell`` reads from a task's options: the running mode, the live-stream
/// delegate and the rules the other options must meet. Every task's options class conforms, so
/// that every task checks its options in one place, the same way (``OptionValidation/check(_:)``).
package protocol VisionTaskOptions: TaskOptions {
    /// `.image`, `.video` or `.liveStream`.
    var runningMode: RunningMode { get }
    /// The task's live-stream delegate, if set (held weakly by the options).
    var liveStreamDelegate: AnyObject? { get }
    /// The checks of this task's own options, in the order they are made.
    var optionRules: [OptionRule] { get }
}
