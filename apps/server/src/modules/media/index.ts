export { MediaError, type MediaErrorCode } from './errors';
export { locateFfmpeg, runFfmpeg, FfmpegExitError, type FfmpegTools, type FfmpegSource } from './ffmpeg';
export {
  measureAudioSeconds,
  probeAudio,
  sniffAudioMagic,
  sniffImageMagic,
  type AudioProbe,
  type ImageKind,
} from './probe';
export {
  transcodeToEncryptedHls,
  KEY_URI_PLACEHOLDER,
  type TranscodeOptions,
  type TranscodeResult,
} from './transcode';
export { synthesizeSong, type SynthesizeOptions } from './synth';
export { generateCoverArt, generatePortraitArt, makeWebpVariants, type CoverArtOptions } from './images';
export { mapWithConcurrency } from './pool';
export {
  cutPreviewClip,
  encodeFlacMaster,
  encodeMp3,
  isLosslessCodec,
  type PreviewClipOptions,
  type RenditionOptions,
} from './renditions';
export { coverJpeg, id3v2Tag, taggedFlac, taggedMp3, type AudioTags } from './tagged-audio';
export { ffmpegLocator } from './ffmpeg-locator';
export { seededRandom } from './seeded-random';
