import ModelFile

/// An error raised while preparing or running a model.
///
/// Every problem with a model that the engine cannot run (an operator it does not implement,
/// an option or a tensor type it does not support, inconsistent shapes) ends in one of these
/// cases when the ``Interpreter`` is created; nothing fails later, during `invoke()`.
package enum InferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operator at `index` (in the main subgraph) is not implemented, or not in this version.
    case unsupportedOperator(name: String, version: Int, index: Int)
    /// The operator is implemented but one of its options or tensor types is not.
    case unsupportedOption(name: String, version: Int, index: Int, detail: String)
    /// The model is inconsistent: shapes that do not match, a missing constant, and so on.
    case invalidModel(String)
    /// A tensor index passed to the interpreter is out of range.
    case tensorIndexOutOfRange(kind: String, index: Int, count: Int)
    /// Input data of the wrong size or type.
    case inputMismatch(String)
    /// Output `index` was declared unused (``InterpreterOptions/unusedOutputs``), so it is not
    /// computed.
    case outputNotComputed(index: Int)

    package var description: String {
        switch self {
        case .unsupportedOperator(let name, let version, let index):
            return "unsupported operator \(name) version \(version) (operator \(index))"
        case .unsupportedOption(let name, let version, let index, let detail):
            return "unsupported \(name) version \(version) (operator \(index)): \(detail)"
        case .invalidModel(let message):
            return "invalid model: \(message)"
        case .tensorIndexOutOfRange(let kind, let index, let count):
            return "\(kind) index \(index) is out of range (the model has \(count))"
        case .inputMismatch(let message):
            return "input mismatch: \(message)"
        case .outputNotComputed(let index):
            return "output \(index) is not computed: the interpreter was created with it among its unused outputs"
        }
    }
}
