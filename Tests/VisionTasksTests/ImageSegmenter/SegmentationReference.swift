import Foundation
import Imaging
import ModelFile
import TestSupport

@testable import VisionTasks

/// MediaPipe's segmentation masks as ../shared/oracle/masks.py stores them: a category mask as
/// an 8-bit grayscale PNG; a confidence mask as an `.npz` (zip of deflated `.npy`) holding
/// `grid` (the mask at the model's size), `index`/`value` corrections and `shape`, from which
/// `resize_linear(grid) + corrections` is MediaPipe's mask bit for bit — or the whole `mask`.
enum SegmentationReference {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One `.npy` array: its shape and raw little-endian element bytes.
    struct Array {
        var descr: String
        var shape: [Int]
        var data: [UInt8]

        var floats: [Float] {
            stride(from: 0, to: data.count - 3, by: 4).map { offset in
                Float(
                    bitPattern: UInt32(data[offset]) | UInt32(data[offset + 1]) << 8 | UInt32(data[offset + 2]) << 16
                        | UInt32(data[offset + 3]) << 24)
            }
        }

        var integers: [Int] {
            stride(from: 0, to: data.count - 7, by: 8).map { offset in
                var value: UInt64 = 0
                for byte in 0..<8 { value |= UInt64(data[offset + byte]) << (8 * UInt64(byte)) }
                return Int(Int64(bitPattern: value))
            }
        }
    }

    /// The arrays of an `.npz` file by member name without `.npy`.
    static func arrays(npz path: String) throws -> [String: Array] {
        let archive = try ZipArchive(contentsOfFile: path)
        var arrays: [String: Array] = [:]
        for name in archive.memberNames where name.hasSuffix(".npy") {
            guard let member = archive.member(named: name) else { continue }
            arrays[String(name.dropLast(4))] = try parse(npy: try archive.extract(member))
        }
        return arrays
    }

    /// A `.npy` file (format versions 1–3): magic, version, header length, a Python dict header.
    static func parse(npy bytes: [UInt8]) throws -> Array {
        guard bytes.count > 10, bytes[0] == 0x93, String(decoding: bytes[1..<6], as: UTF8.self) == "NUMPY" else {
            throw Failure(description: "not a .npy file")
        }
        let major = bytes[6]
        let headerLength =
            major == 1
            ? Int(bytes[8]) | Int(bytes[9]) << 8
            : Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let start = major == 1 ? 10 : 12
        guard bytes.count >= start + headerLength else { throw Failure(description: "truncated .npy header") }
        let header = String(decoding: bytes[start..<(start + headerLength)], as: UTF8.self)
        guard !header.contains("'fortran_order': True"),
            let descrRange = header.range(of: "'descr': '"),
            let descrEnd = header[descrRange.upperBound...].firstIndex(of: "'"),
            let shapeStart = header.range(of: "'shape': ("),
            let shapeEnd = header[shapeStart.upperBound...].firstIndex(of: ")")
        else { throw Failure(description: "unsupported .npy header \(header)") }
        let descr = String(header[descrRange.upperBound..<descrEnd])
        let shape = header[shapeStart.upperBound..<shapeEnd].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        return Array(descr: descr, shape: shape, data: Swift.Array(bytes[(start + headerLength)...]))
    }

    /// MediaPipe's confidence mask of `path` as `height × width` floats, row-major.
    static func confidenceMask(npz path: String) throws -> (values: [Float], width: Int, height: Int) {
        let arrays = try arrays(npz: path)
        if let mask = arrays["mask"] {
            guard mask.descr == "<f4", mask.shape.count == 2 else { throw Failure(description: "mask \(mask.shape)") }
            return (mask.floats, mask.shape[1], mask.shape[0])
        }
        guard let grid = arrays["grid"], grid.descr == "<f4", grid.shape.count == 2,
            let shape = arrays["shape"]?.integers, shape.count == 2,
            let index = arrays["index"]?.integers, let value = arrays["value"]?.floats, index.count == value.count
        else { throw Failure(description: "\(path): no grid, shape and corrections") }
        var mask = resizeLinear(grid.floats, width: grid.shape[1], height: grid.shape[0], to: shape[1], shape[0])
        for (i, v) in zip(index, value) where i >= 0 && i < mask.count { mask[i] = v }
        return (mask, shape[1], shape[0])
    }

    /// oracle/masks.py `resize_linear`, written out independently of the package's resize: per
    /// axis `f = float((d + 0.5) · (1 / (n_out / n_in)) − 0.5)`, `s = ⌊f⌋`, `f −= s`, clamped to
    /// the first / last source sample with `f = 0`; horizontal pass, then vertical, `a·w0 + b·w1`
    /// in float.
    static func resizeLinear(_ grid: [Float], width: Int, height: Int, to outWidth: Int, _ outHeight: Int) -> [Float] {
        func axis(_ count: Int, _ source: Int) -> [(Int, Int, Float, Float)] {
            (0..<count).map { d in
                var f = Float((Double(d) + 0.5) * (1.0 / (Double(count) / Double(source))) - 0.5)
                var s = Int(f.rounded(.down))
                f = f - Float(s)
                if s < 0 {
                    s = 0
                    f = 0
                } else if s >= source - 1 {
                    s = source - 1
                    f = 0
                }
                return (s, Swift.min(s + 1, source - 1), 1 - f, f)
            }
        }
        let xs = axis(outWidth, width)
        let ys = axis(outHeight, height)
        var wide = [Float](repeating: 0, count: height * outWidth)
        for y in 0..<height {
            for (x, (s0, s1, w0, w1)) in xs.enumerated() {
                wide[y * outWidth + x] = grid[y * width + s0] * w0 + grid[y * width + s1] * w1
            }
        }
        var output = [Float](repeating: 0, count: outHeight * outWidth)
        for (y, (s0, s1, w0, w1)) in ys.enumerated() {
            for x in 0..<outWidth {
                output[y * outWidth + x] = wide[s0 * outWidth + x] * w0 + wide[s1 * outWidth + x] * w1
            }
        }
        return output
    }

    /// MediaPipe's category mask of `path` (an 8-bit grayscale PNG) as bytes, row-major.
    static func categoryMask(png path: String) throws -> (values: [UInt8], width: Int, height: Int) {
        let image = try MPImage(contentsOfFile: path)
        let rgb = image.bitmap.convertedToRGB()
        let values = stride(from: 0, to: rgb.bytes.count, by: 3).map { rgb.bytes[$0] }
        return (values, rgb.width, rgb.height)
    }

    /// The JSON of a reference file.
    static func json(_ relative: String) throws -> [String: Any]? {
        guard let path = SharedData.path(relative) else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return object as? [String: Any]
    }
}
