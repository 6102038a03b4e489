// Our own minimal binding of the ONNX Runtime C API (never the official header).
//
// `OrtGetApiBase()` returns `{ GetApi(uint32) -> const OrtApi*, GetVersionString() -> const char* }`.
// `OrtApi` is a C struct made only of function pointers; ORT only ever *appends* entries, so an
// entry's index is stable across releases. We read the pointers we need by index from the table
// returned for API version 17 (ORT 1.17), so every newer library works too.
// Indices were counted from include/onnxruntime/core/session/onnxruntime_c_api.h (struct OrtApi);
// the tests run real models through the real library, which catches a wrong index.

/// `OrtStatus*`: NULL means success.
typealias OrtStatusPtr = OpaquePointer?
typealias OutHandle = UnsafeMutablePointer<OpaquePointer?>
typealias OutCString = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

/// The table positions of the entries we call (0-based, pointer-sized slots).
enum OrtApiIndex {
    static let getErrorMessage = 2
    static let createEnv = 3
    static let createSession = 7
    static let createSessionFromArray = 8
    static let run = 9
    static let createSessionOptions = 10
    static let setSessionGraphOptimizationLevel = 23
    static let setIntraOpNumThreads = 24
    static let setInterOpNumThreads = 25
    static let sessionGetInputCount = 30
    static let sessionGetOutputCount = 31
    static let sessionGetInputTypeInfo = 33
    static let sessionGetOutputTypeInfo = 34
    static let sessionGetInputName = 36
    static let sessionGetOutputName = 37
    static let createTensorWithDataAsOrtValue = 49
    static let getTensorMutableData = 51
    static let castTypeInfoToTensorInfo = 55
    static let getOnnxTypeFromTypeInfo = 56
    static let getTensorElementType = 60
    static let getDimensionsCount = 61
    static let getDimensions = 62
    static let getTensorShapeElementCount = 64
    static let getTensorTypeAndShape = 65
    static let getValueType = 67
    static let createCpuMemoryInfo = 69
    static let allocatorFree = 76
    static let getAllocatorWithDefaultOptions = 78
    static let releaseEnv = 92
    static let releaseStatus = 93
    static let releaseMemoryInfo = 94
    static let releaseSession = 95
    static let releaseValue = 96
    static let releaseTypeInfo = 98
    static let releaseTensorTypeAndShapeInfo = 99
    static let releaseSessionOptions = 100
    static let sessionGetModelMetadata = 111
    static let modelMetadataGetProducerName = 112
    static let modelMetadataGetGraphName = 113
    static let modelMetadataLookupCustomMetadataMap = 116
    static let releaseModelMetadata = 118
    static let modelMetadataGetCustomMetadataMapKeys = 123
    static let addSessionConfigEntry = 130
}

/// C enum values we pass (C enums are `int`).
enum OrtConstant {
    static let loggingLevelError: Int32 = 3          // ORT_LOGGING_LEVEL_ERROR
    static let arenaAllocator: Int32 = 1             // OrtArenaAllocator
    static let memTypeDefault: Int32 = 0             // OrtMemTypeDefault
    static let onnxTypeTensor: Int32 = 1             // ONNX_TYPE_TENSOR
    static let requestedApiVersion: UInt32 = 17      // ORT_API_VERSION of ORT 1.17
}

/// The function pointers we use, loaded once from the `OrtApi` table.
struct OrtAPI: @unchecked Sendable {
    typealias GetErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias Release = @convention(c) (OpaquePointer?) -> Void
    typealias CreateEnv = @convention(c) (Int32, UnsafePointer<CChar>?, OutHandle?) -> OrtStatusPtr
    typealias CreateSession = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, OutHandle?) -> OrtStatusPtr
    typealias CreateSessionFromArray = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, OpaquePointer?, OutHandle?) -> OrtStatusPtr
    typealias Run = @convention(c) (
        OpaquePointer?, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<OpaquePointer?>?, Int,
        UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafeMutablePointer<OpaquePointer?>?
    ) -> OrtStatusPtr
    typealias CreateHandle = @convention(c) (OutHandle?) -> OrtStatusPtr
    typealias SetInt = @convention(c) (OpaquePointer?, Int32) -> OrtStatusPtr
    typealias SetConfigEntry = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OrtStatusPtr
    typealias GetCount = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?) -> OrtStatusPtr
    typealias GetIndexedHandle = @convention(c) (OpaquePointer?, Int, OutHandle?) -> OrtStatusPtr
    typealias GetIndexedName = @convention(c) (OpaquePointer?, Int, OpaquePointer?, OutCString?) -> OrtStatusPtr
    typealias GetHandle = @convention(c) (OpaquePointer?, OutHandle?) -> OrtStatusPtr
    typealias GetEnum = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> OrtStatusPtr
    typealias GetDimensions = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int64>?, Int) -> OrtStatusPtr
    typealias CreateCpuMemoryInfo = @convention(c) (Int32, Int32, OutHandle?) -> OrtStatusPtr
    typealias CreateTensorWithData = @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, Int, UnsafePointer<Int64>?, Int, Int32, OutHandle?
    ) -> OrtStatusPtr
    typealias GetTensorMutableData = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> OrtStatusPtr
    typealias AllocatorFree = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> OrtStatusPtr
    typealias GetString = @convention(c) (OpaquePointer?, OpaquePointer?, OutCString?) -> OrtStatusPtr
    typealias LookupMetadata = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, OutCString?) -> OrtStatusPtr
    typealias GetMetadataKeys = @convention(c) (
        OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?,
        UnsafeMutablePointer<Int64>?
    ) -> OrtStatusPtr

    let getErrorMessage: GetErrorMessage
    let createEnv: CreateEnv
    let createSession: CreateSession
    let createSessionFromArray: CreateSessionFromArray
    let run: Run
    let createSessionOptions: CreateHandle
    let setSessionGraphOptimizationLevel: SetInt
    let setIntraOpNumThreads: SetInt
    let setInterOpNumThreads: SetInt
    let addSessionConfigEntry: SetConfigEntry
    let sessionGetInputCount: GetCount
    let sessionGetOutputCount: GetCount
    let sessionGetInputTypeInfo: GetIndexedHandle
    let sessionGetOutputTypeInfo: GetIndexedHandle
    let sessionGetInputName: GetIndexedName
    let sessionGetOutputName: GetIndexedName
    let createTensorWithDataAsOrtValue: CreateTensorWithData
    let getTensorMutableData: GetTensorMutableData
    let castTypeInfoToTensorInfo: GetHandle
    let getOnnxTypeFromTypeInfo: GetEnum
    let getTensorElementType: GetEnum
    let getDimensionsCount: GetCount
    let getDimensions: GetDimensions
    let getTensorShapeElementCount: GetCount
    let getTensorTypeAndShape: GetHandle
    let getValueType: GetEnum
    let createCpuMemoryInfo: CreateCpuMemoryInfo
    let allocatorFree: AllocatorFree
    let getAllocatorWithDefaultOptions: CreateHandle
    let releaseEnv: Release
    let releaseStatus: Release
    let releaseMemoryInfo: Release
    let releaseSession: Release
    let releaseValue: Release
    let releaseTypeInfo: Release
    let releaseTensorTypeAndShapeInfo: Release
    let releaseSessionOptions: Release
    let sessionGetModelMetadata: GetHandle
    let modelMetadataGetProducerName: GetString
    let modelMetadataGetGraphName: GetString
    let modelMetadataLookupCustomMetadataMap: LookupMetadata
    let releaseModelMetadata: Release
    let modelMetadataGetCustomMetadataMapKeys: GetMetadataKeys

    /// Reads every entry from `table` (the `const OrtApi*` returned by `GetApi(17)`).
    init(table: UnsafeRawPointer) {
        func entry<F>(_ index: Int, _: F.Type = F.self) -> F {
            table.load(fromByteOffset: index * MemoryLayout<UnsafeRawPointer>.stride, as: F.self)
        }
        typealias I = OrtApiIndex
        getErrorMessage = entry(I.getErrorMessage)
        createEnv = entry(I.createEnv)
        createSession = entry(I.createSession)
        createSessionFromArray = entry(I.createSessionFromArray)
        run = entry(I.run)
        createSessionOptions = entry(I.createSessionOptions)
        setSessionGraphOptimizationLevel = entry(I.setSessionGraphOptimizationLevel)
        setIntraOpNumThreads = entry(I.setIntraOpNumThreads)
        setInterOpNumThreads = entry(I.setInterOpNumThreads)
        addSessionConfigEntry = entry(I.addSessionConfigEntry)
        sessionGetInputCount = entry(I.sessionGetInputCount)
        sessionGetOutputCount = entry(I.sessionGetOutputCount)
        sessionGetInputTypeInfo = entry(I.sessionGetInputTypeInfo)
        sessionGetOutputTypeInfo = entry(I.sessionGetOutputTypeInfo)
        sessionGetInputName = entry(I.sessionGetInputName)
        sessionGetOutputName = entry(I.sessionGetOutputName)
        createTensorWithDataAsOrtValue = entry(I.createTensorWithDataAsOrtValue)
        getTensorMutableData = entry(I.getTensorMutableData)
        castTypeInfoToTensorInfo = entry(I.castTypeInfoToTensorInfo)
        getOnnxTypeFromTypeInfo = entry(I.getOnnxTypeFromTypeInfo)
        getTensorElementType = entry(I.getTensorElementType)
        getDimensionsCount = entry(I.getDimensionsCount)
        getDimensions = entry(I.getDimensions)
        getTensorShapeElementCount = entry(I.getTensorShapeElementCount)
        getTensorTypeAndShape = entry(I.getTensorTypeAndShape)
        getValueType = entry(I.getValueType)
        createCpuMemoryInfo = entry(I.createCpuMemoryInfo)
        allocatorFree = entry(I.allocatorFree)
        getAllocatorWithDefaultOptions = entry(I.getAllocatorWithDefaultOptions)
        releaseEnv = entry(I.releaseEnv)
        releaseStatus = entry(I.releaseStatus)
        releaseMemoryInfo = entry(I.releaseMemoryInfo)
        releaseSession = entry(I.releaseSession)
        releaseValue = entry(I.releaseValue)
        releaseTypeInfo = entry(I.releaseTypeInfo)
        releaseTensorTypeAndShapeInfo = entry(I.releaseTensorTypeAndShapeInfo)
        releaseSessionOptions = entry(I.releaseSessionOptions)
        sessionGetModelMetadata = entry(I.sessionGetModelMetadata)
        modelMetadataGetProducerName = entry(I.modelMetadataGetProducerName)
        modelMetadataGetGraphName = entry(I.modelMetadataGetGraphName)
        modelMetadataLookupCustomMetadataMap = entry(I.modelMetadataLookupCustomMetadataMap)
        releaseModelMetadata = entry(I.releaseModelMetadata)
        modelMetadataGetCustomMetadataMapKeys = entry(I.modelMetadataGetCustomMetadataMapKeys)
    }
}
