import ModelFile
import TestSupport

/// A model of `../shared/models`: `member` of the bundle `file`, or the plain model file when
/// `member` is nil; nil (after a note) when the file is absent, so that the test passes without
/// it.
func sharedModel(_ file: String, member: String? = nil) throws -> TFLiteModel? {
    guard let path = SharedData.path("models/\(file)") else {
        print("skipping: ../shared/models/\(file) is absent")
        return nil
    }
    return try ModelContainer(contentsOfFile: path).model(named: member)
}
