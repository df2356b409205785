// Auto mode's classifier: the step that puts what the pipeline left open to a classifier instead
// of a person, a classifier that asks a model, and the denial tracker whose count of refusals
// trips the breaker (after which a person decides again).

export {
  type AutoModeClassifier,
  askClassifier,
  type ClassifierOutcome,
  type ClassifierRequest,
  type ClassifierVerdict,
} from "./classifier-step.js";
export { type DenialEntry, DenialTracker } from "./denial-tracking.js";
export {
  createLazyClassifier,
  createModelClassifier,
  type ModelClassifierOptions,
  parseVerdict,
} from "./model-classifier.js";
