/// One DeepFilterNet state: the model with its recurrent memory, for one message.
final class DeepFilterNetSession {
    private let library: DeepFilterNetLibrary
    private let state: OpaquePointer
    /// Samples in and out per call: 480, 10 ms at 48 kHz.
    let frameLength: Int

    /// How far the output lags the input, in samples: the STFT's window less its hop (480) and
    /// the two frames DeepFilterNet3 looks ahead (960). A property of the pinned model, which
    /// `DenoiserTests` measures.
    static let delay = 1440

    /// A state that takes at most `attenuationLimit` dB off any part of the spectrum.
    init(library: DeepFilterNetLibrary, attenuationLimit: Double) throws {
        guard let state = library.modelPath.withCString({ library.create($0, Float(attenuationLimit), nil) }) else {
            throw AudioPipelineError(.codecFailure, "DeepFilterNet could not start (df_create returned nothing)")
        }
        self.library = library
        self.state = state
        frameLength = library.frameLength(state)
    }

    deinit { library.free(state) }

    /// Processes one frame of `frameLength` samples; returns the model's estimate of the frame's
    /// local SNR, in dB.
    @discardableResult
    func process(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>) -> Float {
        library.processFrame(state, input, output)
    }
}
