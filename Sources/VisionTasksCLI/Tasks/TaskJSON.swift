import Foundation
import VisionTasks

/// JSON shapes shared by the task commands.
package enum TaskJSON {
    /// `{"x","y","z"}` plus `"visibility"`/`"presence"` when the landmark has them.
    package static func landmark(x: Float, y: Float, z: Float, visibility: Float?, presence: Float?) -> JSONValue {
        var fields: [(String, JSONValue)] = [("x", .float(x)), ("y", .float(y)), ("z", .float(z))]
        if let visibility { fields.append(("visibility", .float(visibility))) }
        if let presence { fields.append(("presence", .float(presence))) }
        return .object(fields)
    }

    /// One list of normalized landmarks per detected object.
    package static func landmarks(_ lists: [[NormalizedLandmark]]) -> JSONValue {
        .array(
            lists.map { list in
                .array(
                    list.map { landmark(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility, presence: $0.presence) })
            })
    }

    /// One list of world landmarks per detected object.
    package static func worldLandmarks(_ lists: [[Landmark]]) -> JSONValue {
        .array(
            lists.map { list in
                .array(
                    list.map { landmark(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility, presence: $0.presence) })
            })
    }

    /// `{"index","score","categoryName","displayName"}`; names are `null` when absent.
    package static func category(_ category: ResultCategory) -> JSONValue {
        .object([
            ("index", .int(category.index)), ("score", .float(category.score)),
            ("categoryName", .string(category.categoryName)), ("displayName", .string(category.displayName)),
        ])
    }

    /// `{"x","y","width","height"}` of a box in pixels.
    package static func boundingBox(_ box: CGRect) -> JSONValue {
        .object([
            ("x", .double(Double(box.minX))), ("y", .double(Double(box.minY))),
            ("width", .double(Double(box.width))), ("height", .double(Double(box.height))),
        ])
    }

    /// The fields every task line starts with.
    package static func header(file: String, width: Int, height: Int, timestamp: Int) -> [(String, JSONValue)] {
        [
            ("file", .string(file)), ("width", .int(width)), ("height", .int(height)),
            ("timestampInMilliseconds", .int(timestamp)),
        ]
    }

    /// `line` with `key` set to `value`: replaced where present, else inserted after `file`.
    package static func setting(_ key: String, to value: JSONValue, in line: JSONValue) -> JSONValue {
        guard case .object(var fields) = line else { return line }
        if let index = fields.firstIndex(where: { $0.0 == key }) {
            fields[index].1 = value
        } else {
            let position = fields.firstIndex(where: { $0.0 == "file" }).map { $0 + 1 } ?? 0
            fields.insert((key, value), at: position)
        }
        return .object(fields)
    }
}
