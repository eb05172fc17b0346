import ModelFile
import TestSupport
import Testing

@testable import Inference

@Suite struct LoadTimePassTests {
    private func densify(_ sparsity: Densifier.Layout, values: [Float], shape: [Int]) throws -> [Float] {
        let buffer = try values.withUnsafeBytes { raw in
            try Densifier.densify(values: raw, sparsity: sparsity, shape: shape, elementSize: 4)
        }
        return Array(UnsafeBufferPointer(start: buffer.floats, count: shape.reduce(1, *)))
    }

    private func dense(_ size: Int) -> Densifier.Layout.Level {
        .init(isCompressed: false, denseSize: size, segments: [], indices: [])
    }

    private func csr(_ segments: [Int32], _ indices: [Int32]) -> Densifier.Layout.Level {
        .init(isCompressed: true, denseSize: 0, segments: segments, indices: indices)
    }

    @Test func densifiesCompressedRows() throws {
        // 3×4 matrix, rows dense, columns CSR: row 0 has (1: 5), row 1 none, row 2 (0: 7), (3: 8).
        let sparsity = Densifier.Layout(
            traversalOrder: [0, 1], blockMap: [], levels: [dense(3), csr([0, 1, 1, 3], [1, 0, 3])])
        #expect(try densify(sparsity, values: [5, 7, 8], shape: [3, 4]) == [0, 5, 0, 0, 0, 0, 0, 0, 7, 0, 0, 8])
    }

    @Test func densifiesBlockSparseMatrices() throws {
        // 4×4 in 2×2 blocks; block rows dense, block columns CSR: blocks (0, 1) and (1, 0).
        let sparsity = Densifier.Layout(
            traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
            levels: [dense(2), csr([0, 1, 2], [1, 0]), dense(2), dense(2)])
        let out = try densify(sparsity, values: [1, 2, 3, 4, 5, 6, 7, 8], shape: [4, 4])
        #expect(out == [0, 0, 1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8, 0, 0])
    }

    @Test func rejectsSparseIndicesOutsideTheShape() {
        let sparsity = Densifier.Layout(
            traversalOrder: [0, 1], blockMap: [], levels: [dense(2), csr([0, 1, 2], [0, 9])])
        #expect(throws: InferenceError.self) { try densify(sparsity, values: [1, 2], shape: [2, 4]) }
        let truncated = Densifier.Layout(
            traversalOrder: [0, 1], blockMap: [], levels: [dense(2), csr([0, 1, 2], [0, 1])])
        #expect(throws: InferenceError.self) { try densify(truncated, values: [1], shape: [2, 4]) }
        let badOrder = Densifier.Layout(traversalOrder: [0, 0], blockMap: [], levels: [dense(2), dense(4)])
        #expect(throws: InferenceError.self) { try densify(badOrder, values: [1], shape: [2, 4]) }
    }

    @Test func plannerSharesMemoryOnlyBetweenDisjointLifetimes() {
        let plan = MemoryPlanner.plan(
            [
                .init(id: 0, byteCount: 100, first: 0, last: 1),
                .init(id: 1, byteCount: 100, first: 1, last: 2),
                .init(id: 2, byteCount: 100, first: 2, last: 3),
                .init(id: 3, byteCount: 300, first: 4, last: 5),
            ], alignment: 64)
        #expect(plan.offsets[0] == 0 && plan.offsets[2] == 0)
        #expect(plan.offsets[1] == 128)
        #expect(plan.offsets[3] == 0)
        #expect(plan.byteCount == 320)
    }

    @Test func reportsTheFirstUnsupportedOperatorWithVersionAndIndex() throws {
        guard let directory = QuantizedGolden.directory else { throw GoldenError.missing("Golden/Quantized") }
        let custom = try TFLiteModel(
            contentsOfFile: directory.appendingPathComponent("models/unsupported-custom-operator.tflite").path)
        #expect(throws: InferenceError.unsupportedOperator(name: "CUSTOM:VisionTasksUnknownOp", version: 1, index: 1)) {
            try Interpreter(model: custom)
        }
        let version = try TFLiteModel(
            contentsOfFile: directory.appendingPathComponent("models/unsupported-operator-version.tflite").path)
        #expect(throws: InferenceError.unsupportedOperator(name: "LOGISTIC", version: 9, index: 0)) {
            try Interpreter(model: version)
        }
    }

    @Test func foldsSparseAndHalfWeightsOfThePoseDetector() throws {
        guard let model = try sharedModel("pose_landmarker_lite.task", member: "pose_detector.tflite") else { return }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // 291 operators: 144 DEQUANTIZE and 38 DENSIFY fold away, 6 RESHAPEs become aliases,
        // 8 spatial zero PADs fold into the convolutions that read them, the 15 residual ADDs
        // into the convolutions that write one of their operands, the five depthwise
        // convolutions read only by a dense 1×1 convolution of more than four outputs into that
        // one (two more feed 2-output heads, which run as dot products), and the four 1×1
        // convolutions whose large outputs feed depthwise convolutions of 28 or more output rows
        // into those.
        #expect(interpreter.kernelCount == 291 - 144 - 38 - 6 - 8 - 15 - 5 - 4)
        #expect(interpreter.arenaByteCount > 0)
    }

    @Test func fusesPadsPReLUsResidualAddsAndDepthwiseStagesOfThePalmDetector() throws {
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_detector.tflite") else { return }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // 272 operators: 133 DEQUANTIZE fold away, 4 RESHAPEs become aliases, the 31 PRELUs run
        // in the store step of the CONV_2D or ADD before them, the 3 channel PADs inside ADDs,
        // 24 of the 30 ADDs in the convolution that writes one of their operands, and 23 of the 28
        // depthwise convolutions into the 1×1 convolution after them (the other five have 6 × 6
        // outputs: too few pixels for a band).
        #expect(interpreter.kernelCount == 272 - 133 - 4 - 31 - 3 - 24 - 23)
    }

    @Test func fusesReLUsIntoTheOperatorsThatWriteTheirInputInBlazeFace() throws {
        guard let model = try sharedModel("blaze_face_short_range.tflite") else { return }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // 164 operators: 74 DEQUANTIZE fold away, 4 RESHAPEs become aliases, the 11 channel PADs
        // run inside ADDs, the 16 residual ADDs in the convolutions that write one of their
        // operands, all 17 RELUs in the operator before them (the stem convolution and the 16
        // fused ADDs), and all 16 depthwise convolutions in the 1×1 convolutions after them.
        #expect(interpreter.kernelCount == 164 - 74 - 4 - 11 - 16 - 17 - 16)
        #expect(interpreter.kernelLabels.allSatisfy { !$0.hasPrefix("RELU") })
    }

    @Test func fusesHardSwishesAndDepthwiseResidualAddsOfTheSelfieSegmenter() throws {
        guard let model = try sharedModel("selfie_segmenter.tflite") else { return }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // 246 operators: 110 DEQUANTIZE fold away, the 22 RELUs and the 11 HARD_SWISHes run in
        // the convolution before them, 5 residual ADDs in the CONV_2D and 3 in the
        // DEPTHWISE_CONV_2D that writes one of their operands, three 1×1 convolutions in the
        // depthwise one after them (the encoder's first, and the decoder's 64 × 64 and 128 × 128
        // ones, whose output is also the residual their depthwise convolution adds), two
        // depthwise convolutions in the 1×1 ones after them, and the decoder's three
        // squeeze-and-excitation MULs in the ADDs after them.
        #expect(interpreter.kernelCount == 246 - 110 - 22 - 11 - 5 - 3 - 3 - 2 - 3)
        #expect(interpreter.kernelLabels.filter { $0.hasPrefix("MUL") }.count == 10 - 3)
        #expect(interpreter.kernelLabels.allSatisfy { !$0.hasPrefix("HARD_SWISH") && !$0.hasPrefix("RELU") })
        // The depthwise kernels add their residual band by band: the same bits for any split.
        try expectSameBits(
            model, input: RandomInput.values(seed: 11, count: 256 * 256 * 3, low: 0, high: 1), threads: [1, 2, 3])
    }

    @Test func depthwiseKernelsAddingTheir1x1StagesOutputGiveTheUnfusedBits() throws {
        // The selfie segmenter's decoder blocks, y = relu(dw(m)) + m with m = relu(1×1(x)), as
        // one kernel that adds m from its band: against the same model with no 1×1 stage fused
        // anywhere (m then stored and read back), at one, two and three threads.
        guard let model = try sharedModel("selfie_segmenter.tflite") else { return }
        let input = RandomInput.values(seed: 23, count: 256 * 256 * 3, low: 0, high: 1)
        var unfused = EngineTuning.standard
        unfused.fusedPointwiseBytes = Int.max
        // Every 1×1 output fused, however small: the 32 × 32 block too.
        var fusedMore = EngineTuning.standard
        fusedMore.fusedPointwiseBytes = 1
        let runs =
            [(unfused, 1, 246 - 110 - 22 - 11 - 5 - 3 - 2 - 3)]
            + [1, 2, 3].map { (EngineTuning.standard, $0, 246 - 110 - 22 - 11 - 5 - 3 - 3 - 2 - 3) }
            + [(fusedMore, 2, 246 - 110 - 22 - 11 - 5 - 3 - 4 - 2 - 3)]
        var reference: [UInt32]?
        for (tuning, threads, kernels) in runs {
            let options = InterpreterOptions(threadCount: threads)
            options.tuning = tuning
            let interpreter = try Interpreter(model: model, options: options)
            #expect(interpreter.kernelCount == kernels)
            try interpreter.copyInput(0, from: input)
            try interpreter.invoke()
            let bits = try interpreter.output(0).map(\.bitPattern)
            if let reference { #expect(bits == reference, "\(threads) threads") } else { reference = bits }
        }
    }

    @Test func resultsAreBitIdenticalForAnyThreadCount() throws {
        guard let path = SharedData.path("models/pose_landmarker_full.task") else {
            print("skipping: ../shared/models/pose_landmarker_full.task is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: "pose_landmarks_detector.tflite")
        try expectSameBits(
            model, input: RandomInput.values(seed: 7, count: 256 * 256 * 3, low: 0, high: 1), threads: [1, 2, 3])
    }

    @Test func fusedPointwiseBandsGiveTheSameBitsForAnyThreadCount() throws {
        // The pose detector's 1×1 → depthwise fusions cut bands by thread count, and bands
        // recompute the 1×1 rows their windows share: the results must not change.
        guard let path = SharedData.path("models/pose_landmarker_full.task") else {
            print("skipping: ../shared/models/pose_landmarker_full.task is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: "pose_detector.tflite")
        try expectSameBits(
            model, input: RandomInput.values(seed: 11, count: 224 * 224 * 3, low: -1, high: 1),
            threads: [1, 2, 3, 4])
    }

    @Test func fusedPointwiseBandsAreEvenAndShareOutBetweenTheThreads() {
        // The pose detector's 56-row layer with bands of at most 17 rows: four bands of 14 rows,
        // two per thread (before: 17 + 17 + 17 + 5, one thread 34 rows, the other 22).
        #expect(PointwiseDepthwiseKernel.bandCount(height: 56, bandRows: 17, threads: 1) == 4)
        #expect(PointwiseDepthwiseKernel.bandCount(height: 56, bandRows: 17, threads: 2) == 4)
        #expect(PointwiseDepthwiseKernel.bandCount(height: 56, bandRows: 17, threads: 3) == 6)
        #expect(PointwiseDepthwiseKernel.bandCount(height: 56, bandRows: 30, threads: 2) == 2)
        #expect(PointwiseDepthwiseKernel.bandCount(height: 1, bandRows: 5, threads: 4) == 1)
        // Every row in exactly one band, none longer than the scratch holds, sizes within one
        // row of each other, and the same number of bands per thread wherever there are rows
        // enough.
        var wrong: [(height: Int, bandRows: Int, threads: Int)] = []
        for height in 1...64 {
            for bandRows in 1...height {
                for threads in 1...4 {
                    let count = PointwiseDepthwiseKernel.bandCount(height: height, bandRows: bandRows, threads: threads)
                    let sizes = (0..<count).map { ($0 + 1) * height / count - $0 * height / count }
                    let covers = sizes.reduce(0, +) == height && sizes.allSatisfy { $0 >= 1 && $0 <= bandRows }
                    let even = (sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1
                    if !covers || !even || (count != height && count % threads != 0) {
                        wrong.append((height, bandRows, threads))
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func fusedDepthwiseBandsAreEvenAndShareOutBetweenTheThreads() {
        // The hand landmark model's 14×14 layers (4 rows fit the band buffer; bands of at least
        // 24 pixels are 2 rows): six bands of 2–3 rows, 7 rows per thread (before: seven bands
        // of 2 rows, 8 rows for one of two threads and 6 for the other).
        #expect(DepthwisePointwiseKernel.bandCount(height: 14, width: 14, bandRows: 4, threads: 2) == 6)
        #expect(DepthwisePointwiseKernel.bandCount(height: 14, width: 14, bandRows: 4, threads: 1) == 4)
        // 6×6: two bands of 3 rows (before: 4 + 2).
        #expect(DepthwisePointwiseKernel.bandCount(height: 6, width: 6, bandRows: 6, threads: 2) == 2)
        // Large layers keep about 8 bands per thread.
        #expect(DepthwisePointwiseKernel.bandCount(height: 112, width: 112, bandRows: 9, threads: 2) == 16)
        var wrong: [(height: Int, width: Int, bandRows: Int, threads: Int)] = []
        for height in 1...64 {
            for width in [1, 3, 7, 14, 48] {
                for bandRows in 1...height {
                    for threads in 1...4 {
                        let count = DepthwisePointwiseKernel.bandCount(
                            height: height, width: width, bandRows: bandRows,
                            threads: threads)
                        let sizes = (0..<count).map { ($0 + 1) * height / count - $0 * height / count }
                        let covers = sizes.reduce(0, +) == height && sizes.allSatisfy { $0 >= 1 && $0 <= bandRows }
                        let even = (sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1
                        let shared = threads == 1 || count == height || count % threads == 0
                        if !covers || !even || !shared { wrong.append((height, width, bandRows, threads)) }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func fusedDepthwiseBandsSplitRowsThatDoNotShareOutByPixels() {
        // The hand landmark model's 7×7 blocks at two threads: two bands, rows 3 + 4 (21 against
        // 28 pixels) become pixels 24 + 25.
        #expect(DepthwisePointwiseKernel.splitsByPixels(height: 7, width: 7, count: 2, bandRows: 7, threads: 2))
        // Rows that share out evenly, one thread, ranges whose rows would not fit the buffer, or
        // more rows computed twice than the row split leaves between the threads (14×14 in eight
        // bands at four threads: ranges of 24–25 pixels would compute 20 rows for 14) keep row
        // bands.
        #expect(!DepthwisePointwiseKernel.splitsByPixels(height: 14, width: 14, count: 8, bandRows: 4, threads: 4))
        #expect(!DepthwisePointwiseKernel.splitsByPixels(height: 14, width: 14, count: 6, bandRows: 4, threads: 2))
        #expect(!DepthwisePointwiseKernel.splitsByPixels(height: 7, width: 7, count: 1, bandRows: 7, threads: 1))
        #expect(!DepthwisePointwiseKernel.splitsByPixels(height: 7, width: 7, count: 2, bandRows: 3, threads: 2))
        #expect(!DepthwisePointwiseKernel.splitsByPixels(height: 7, width: 1, count: 2, bandRows: 7, threads: 2))
        // Wherever pixel ranges are chosen, every range's rows fit the buffer and the threads'
        // shares of pixels differ by at most one pixel per band.
        var wrong: [(height: Int, width: Int, count: Int, bandRows: Int, threads: Int)] = []
        for height in 1...20 {
            for width in [2, 3, 7, 14] {
                for bandRows in 1...height {
                    for threads in 2...4 {
                        for count in stride(from: threads, through: height, by: threads) {
                            guard
                                DepthwisePointwiseKernel.splitsByPixels(
                                    height: height, width: width, count: count, bandRows: bandRows, threads: threads)
                            else { continue }
                            let pixels = height * width
                            let ranges = (0..<count).map { RowBands.rows($0, of: count, height: pixels) }
                            let fits = ranges.allSatisfy {
                                $0.isEmpty || ($0.upperBound - 1) / width - $0.lowerBound / width + 1 <= bandRows
                            }
                            let shares = (0..<threads).map { t in
                                ranges[(t * count / threads)..<((t + 1) * count / threads)].reduce(0) { $0 + $1.count }
                            }
                            let even = (shares.max() ?? 0) - (shares.min() ?? 0) <= count / threads
                            let rowsComputed = ranges.reduce(0) {
                                $1.isEmpty ? $0 : $0 + ($1.upperBound - 1) / width - $1.lowerBound / width + 1
                            }
                            let rowShares = (0..<threads).map { t in
                                (t * count / threads..<(t + 1) * count / threads).reduce(0) {
                                    $0 + RowBands.rows($1, of: count, height: height).count
                                }
                            }
                            let worth = rowsComputed - height <= (rowShares.max() ?? 0) - (rowShares.min() ?? 0)
                            if !fits || !even || !worth { wrong.append((height, width, count, bandRows, threads)) }
                        }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func depthwiseBandsGrowToReachEnoughPixelsForThePointwiseStage() {
        // 14×14×480: 4 rows fit 128 KB, 56 pixels.
        #expect(DepthwisePointwiseKernel.bandRows(height: 14, width: 14, channels: 480) == 4)
        // 14×14×672: 3 rows fit (42 pixels), so the band grows to 4 rows (56 pixels, 147 KB).
        #expect(DepthwisePointwiseKernel.bandRows(height: 14, width: 14, channels: 672) == 4)
        #expect(DepthwisePointwiseKernel.worthFusing([1, 14, 14, 672]))
        // 7×7×1152: the whole layer (49 pixels, 221 KB) in one band.
        #expect(DepthwisePointwiseKernel.bandRows(height: 7, width: 7, channels: 1152) == 7)
        #expect(DepthwisePointwiseKernel.worthFusing([1, 7, 7, 1152]))
        // 6×6 layers never reach 48 pixels; 7×7×4096 would need 7 rows of 802 KB.
        #expect(!DepthwisePointwiseKernel.worthFusing([1, 6, 6, 288]))
        #expect(DepthwisePointwiseKernel.bandRows(height: 7, width: 7, channels: 4096) == 2)
        #expect(!DepthwisePointwiseKernel.worthFusing([1, 7, 7, 4096]))
        // Large layers keep the 128 KB band.
        #expect(DepthwisePointwiseKernel.bandRows(height: 112, width: 112, channels: 32) == 9)
    }

    @Test func fusedDepthwiseBandsGiveTheSameBitsForAnyThreadCount() throws {
        // The hand landmark model's depthwise → 1×1 fusions cut their bands by thread count, and
        // where the 1×1 expansion before them is fused too, into strips of bands by thread count
        // (a strip's bands share the expanded rows their windows overlap; the first band of each
        // strip computes them again). At 2–4 threads its 7×7 blocks (and at 3 and 4 its 14×14
        // ones) are cut into ranges of pixels, which share a row's depthwise part.
        guard let path = SharedData.path("models/hand_landmarker.task") else {
            print("skipping: ../shared/models/hand_landmarker.task is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: "hand_landmarks_detector.tflite")
        try expectSameBits(
            model, input: RandomInput.values(seed: 13, count: 224 * 224 * 3, low: 0, high: 1),
            threads: [1, 2, 3, 4])
    }

    @Test func fusesTheWholeInvertedResidualBlockWithTheWidestMiddleInTheHandLandmarkModel() throws {
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // The 112×112 block (#11 → #14 → #17): its expansion's 3.2 MB output is computed band by
        // band inside the projection, with the depthwise convolution. The 56×56 and 28×28 blocks
        // (expansions of 1.8 MB and 0.75 MB) keep their expansion as a kernel of its own, the
        // depthwise convolution inside the projection.
        let labels = Set(interpreter.kernelLabels)
        #expect(!labels.contains("CONV_2D#11") && !labels.contains("DEPTHWISE_CONV_2D#14"))
        #expect(labels.contains("CONV_2D#17"))
        for (expansion, depthwise, projection) in [(20, 23, 26), (30, 33, 36), (39, 42, 45)] {
            #expect(labels.contains("CONV_2D#\(expansion)"), "expansion #\(expansion) fused")
            #expect(!labels.contains("DEPTHWISE_CONV_2D#\(depthwise)"))
            #expect(labels.contains("CONV_2D#\(projection)"))
        }
    }

    @Test func blendshapesModelComputesOnlyTheTokenItReadsWithTheSameBits() throws {
        guard let path = SharedData.path("models/face_landmarker.task") else {
            print("skipping: ../shared/models/face_landmarker.task is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: "face_blendshapes.tflite")
        let graph = model.mainSubgraph
        func output(_ op: Int) -> Int { Int(graph.operators[op].outputs[0]) }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        // Only token 0 of the last block reaches the output (STRIDED_SLICEs 174 and 175): the
        // channel MLP's two 1×1 convolutions (169, 172; tokens are pixels) need one pixel, and
        // the convolution that ends the last token mixing (153; tokens are its channels until
        // TRANSPOSE 154) one channel. The token mixing's first convolution (150) reads all of
        // its input, so nothing before it is cut.
        #expect(interpreter.partialTensors[output(169)] == .pixels(0..<1))
        #expect(interpreter.partialTensors[output(172)] == .pixels(0..<1))
        #expect(interpreter.partialTensors[output(153)] == .channels(0..<1))
        #expect(interpreter.partialTensors[output(150)] == nil)
        #expect(interpreter.partialTensors[output(146)] == nil)
        // Reading the three convolutions' outputs whole makes them compute everything: the
        // model's output keeps its bits.
        let whole = try Interpreter(
            model: model, options: InterpreterOptions(threadCount: 2),
            additionalOutputs: [output(153), output(169), output(172)])
        #expect(whole.partialTensors[output(153)] == nil && whole.partialTensors[output(172)] == nil)
        try expectSameBlendshapes(interpreter, whole)
    }

    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func blendshapesLayerNormsRunAsOneKernelWithTheSameBits(_ isa: InstructionSet) throws {
        guard let path = SharedData.path("models/face_landmarker.task") else {
            print("skipping: ../shared/models/face_landmarker.task is absent")
            return
        }
        let model = try ModelContainer(contentsOfFile: path).model(named: "face_blendshapes.tflite")
        let graph = model.mainSubgraph
        let options = InterpreterOptions(threadCount: 2)
        options.instructionSet = isa
        let fused = try Interpreter(model: model, options: options)
        // Reading every RSQRT's output keeps the ten operators of each layer norm apart.
        let roots = graph.operators.filter { model.operatorCodes[$0.opcodeIndex].builtinCode == .reciprocalSquareRoot }
            .map { Int($0.outputs[0]) }
        #expect(roots.count == 8)
        let separate = try Interpreter(model: model, options: options, additionalOutputs: roots)
        // Eight layer norms, nine of their ten operators each gone.
        #expect(separate.kernelCount - fused.kernelCount == 8 * 9)
        #expect(
            !fused.kernelLabels.contains { $0.hasPrefix("RSQRT") || $0.hasPrefix("NEG") || $0.hasPrefix("SQUARED") })
        try expectSameBlendshapes(fused, separate, "\(isa)")
    }

    @Test(arguments: InstructionSet.all.filter(\.isSupported))
    func blendshapesTokenMixingsRunTransposedWithTheSameBits(_ isa: InstructionSet) throws {
        guard let model = try sharedModel("face_landmarker.task", member: "face_blendshapes.tflite") else { return }
        let graph = model.mainSubgraph
        func output(_ op: Int) -> Int { Int(graph.operators[op].outputs[0]) }
        var apart = EngineTuning.standard
        _ = apart.set("transposed-mixing-tokens", to: 1)
        // The last token mixing's output (TRANSPOSE 154) read whole: its kernel then computes
        // all 97 tokens, not only token 0, and the whole tensor is compared.
        func interpreter(_ tuning: EngineTuning, threads: Int) throws -> Interpreter {
            let options = InterpreterOptions(threadCount: threads)
            options.instructionSet = isa
            options.tuning = tuning
            return try Interpreter(model: model, options: options, additionalOutputs: [output(154)])
        }
        let separate = try interpreter(apart, threads: 1)
        let mixingLabels = ["TRANSPOSE#33", "CONV_2D#36", "CONV_2D#39", "TRANSPOSE#40"]
        #expect(mixingLabels.allSatisfy(separate.kernelLabels.contains))
        for threads in [1, 2, 3] {
            let fused = try interpreter(.standard, threads: threads)
            // Four token mixings, three of their four kernels gone each; the first block's
            // TRANSPOSE, 1×1, TRANSPOSE, 1×1 (no mixing) stays as it is.
            #expect(separate.kernelCount - fused.kernelCount == 4 * 3)
            #expect(fused.kernelLabels.filter { $0.hasPrefix("TRANSPOSE") } == ["TRANSPOSE#11", "TRANSPOSE#15"])
            #expect(fused.kernelLabels.contains("CONV_2D#39") && !fused.kernelLabels.contains("CONV_2D#36"))
            for seed in 1...3 {
                let input = RandomInput.values(seed: UInt64(seed), count: 146 * 2, low: 0, high: 255)
                for interpreter in [fused, separate] {
                    try interpreter.copyInput(0, from: input)
                    try interpreter.invoke()
                }
                for index in [0, 1] {
                    #expect(
                        try fused.output(index).map(\.bitPattern) == separate.output(index).map(\.bitPattern),
                        "\(isa), \(threads) threads, output \(index)")
                }
            }
        }
        // Only token 0 of the last one when nothing else reads it: the same model output.
        let options = InterpreterOptions(threadCount: 2)
        options.instructionSet = isa
        try expectSameBlendshapes(try Interpreter(model: model, options: options), separate, "\(isa)")
    }

    /// Runs two interpreters of the blendshapes model on the same random landmarks (three sets)
    /// and expects the same output bits.
    private func expectSameBlendshapes(_ a: Interpreter, _ b: Interpreter, _ comment: Comment? = nil) throws {
        for seed in 1...3 {
            let input = RandomInput.values(seed: UInt64(seed), count: 146 * 2, low: 0, high: 255)
            for interpreter in [a, b] {
                try interpreter.copyInput(0, from: input)
                try interpreter.invoke()
            }
            #expect(try a.output(0).map(\.bitPattern) == b.output(0).map(\.bitPattern), comment)
        }
    }

    /// Declaring the pose landmark model's segmentation output unused drops the operators only
    /// it needs (its decoder at 128×128 and 256×256), keeps the other four outputs' bits, and
    /// makes reading it an error; an unused position beyond the outputs is rejected.
    @Test(arguments: ["pose_landmarker_full.task", "pose_landmarker_lite.task"])
    func unusedOutputsSkipTheOperatorsOnlyTheyNeed(_ bundle: String) throws {
        guard let model = try sharedModel(bundle, member: "pose_landmarks_detector.tflite") else { return }
        let all = try Interpreter(model: model, options: InterpreterOptions(threadCount: 2))
        let options = InterpreterOptions(threadCount: 2)
        options.unusedOutputs = [2]
        let pruned = try Interpreter(model: model, options: options)
        // Ten kernels (the decoder's depthwise and 1×1 pairs, two RESIZE_BILINEARs and an ADD,
        // and the 128×128 pair that only feeds it) go; nothing else changes.
        let removed = Set(all.kernelLabels).subtracting(pruned.kernelLabels)
        #expect(removed.count == 10 && all.kernelCount - pruned.kernelCount == 10, "\(removed.sorted())")
        #expect(removed.filter { $0.hasPrefix("RESIZE_BILINEAR") }.count == 2, "\(removed.sorted())")
        #expect(Set(pruned.kernelLabels).isSubset(of: all.kernelLabels))
        #expect(pruned.arenaByteCount < all.arenaByteCount)
        for seed in 1...2 {
            let input = RandomInput.values(seed: UInt64(seed), count: 256 * 256 * 3, low: 0, high: 1)
            for interpreter in [all, pruned] {
                try interpreter.copyInput(0, from: input)
                try interpreter.invoke()
            }
            for index in [0, 1, 3, 4] {
                #expect(try pruned.output(index).map(\.bitPattern) == all.output(index).map(\.bitPattern))
            }
        }
        #expect(throws: InferenceError.outputNotComputed(index: 2)) { try pruned.output(2) }
        #expect(try pruned.outputShape(2) == [1, 256, 256, 1])
        options.unusedOutputs = [5]
        #expect(throws: InferenceError.tensorIndexOutOfRange(kind: "unused output", index: 5, count: 5)) {
            try Interpreter(model: model, options: options)
        }
    }

    @Test func demandsJoinIntoTheRangeCoveringBoth() {
        typealias Demand = DemandAnalysis.Demand
        #expect(Demand.pixels(2..<4).union(.pixels(7..<9)) == .pixels(2..<9))
        #expect(Demand.channels(0..<1).union(.channels(0..<3)) == .channels(0..<3))
        #expect(Demand.pixels(0..<1).union(.channels(0..<1)) == .all)
        #expect(Demand.pixels(0..<1).union(.all) == .all)
    }

    /// Runs `model` on `input` with each thread count (twice each: inputs are kept and nothing
    /// accumulates) and expects every output bit-identical to the first run's.
    private func expectSameBits(_ model: TFLiteModel, input: [Float], threads counts: [Int]) throws {
        var reference: [[Float]]?
        for threads in counts {
            let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: threads))
            try interpreter.copyInput(0, from: input)
            try interpreter.invoke()
            let outputs = try (0..<interpreter.outputCount).map { try interpreter.output($0) }
            if let reference {
                for (a, b) in zip(outputs, reference) {
                    #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(threads) threads")
                }
            } else {
                reference = outputs
            }
            try interpreter.invoke()
            #expect(try interpreter.output(0).map(\.bitPattern) == outputs[0].map(\.bitPattern))
        }
    }

    @Test func rejectsWrongInputSizeAndIndices() throws {
        guard let model = try sharedModel("hand_landmarker.task", member: "hand_landmarks_detector.tflite") else {
            return
        }
        let interpreter = try Interpreter(model: model, options: InterpreterOptions(threadCount: 1))
        #expect(throws: InferenceError.self) { try interpreter.copyInput(0, from: [1, 2, 3]) }
        #expect(throws: InferenceError.tensorIndexOutOfRange(kind: "input", index: 1, count: 1)) {
            try interpreter.inputShape(1)
        }
        #expect(throws: InferenceError.tensorIndexOutOfRange(kind: "output", index: -1, count: 4)) {
            try interpreter.output(-1)
        }
    }
}
