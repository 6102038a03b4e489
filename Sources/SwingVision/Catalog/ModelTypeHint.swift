import Foundation

/// What kind of model a catalog entry is, inferred from its task and class labels (`models list` shows it).
package enum ModelTypeHint: String, Sendable, Codable, CaseIterable {
    /// A general-purpose detector (e.g. the 80 COCO classes).
    case generic
    /// Playing cards (labels like `10H`, `AS`).
    case poker
    /// A tennis-specific model (tennis ball / racket / player classes).
    case tennis
    /// A classifier of face attributes (emotion, gender, …).
    case faceClassification
    /// Anything else.
    case custom

    /// Infers the hint.
    ///
    /// - poker: at least half the labels (and at least 5) parse as cards;
    /// - tennis: a "tennis ball" class, or "tennis racket" in a small (≤ 10 classes) model — COCO has
    ///   "tennis racket" among 80 classes and stays generic;
    /// - faceClassification: a `classify` model whose labels are mostly emotion/gender/face words;
    /// - generic: at least 20 of the 80 COCO class names;
    /// - custom otherwise.
    /// - Parameters:
    ///   - task: the model task (`detect`, `classify`, …), lower-case.
    ///   - labels: class names in id order.
    package static func infer(task: String?, labels: [String]) -> ModelTypeHint {
        let lower = labels.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        let cards = labels.filter { PokerCard(label: $0) != nil }.count
        if cards >= 5, cards * 2 >= labels.count { return .poker }
        if lower.contains("tennis ball") || (lower.contains("tennis racket") && lower.count <= 10) { return .tennis }
        if task == "classify" {
            let faceWords = lower.filter { faceVocabulary.contains($0) }.count
            if faceWords >= 2, faceWords * 2 >= lower.count { return .faceClassification }
        }
        if lower.filter({ cocoNames.contains($0) }).count >= 20 { return .generic }
        return .custom
    }

    static let faceVocabulary: Set<String> = [
        "angry", "anger", "disgust", "disgusted", "fear", "fearful", "happy", "happiness", "sad", "sadness",
        "surprise", "surprised", "neutral", "contempt", "male", "female", "man", "woman", "smile", "smiling",
        "no smile", "glasses", "no glasses", "beard", "no beard", "mask", "no mask", "young", "old",
    ]

    static let cocoNames: Set<String> = [
        "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
        "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
        "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
        "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
        "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
        "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
        "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
        "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
        "scissors", "teddy bear", "hair drier", "toothbrush",
    ]
}
