// The upload size limit's message, as WordPress words it (in KB).
export const tooBigMessage = (maxBytes: number) => `This file is too big. Files must be less than ${Math.floor(maxBytes / 1024)} KB in size.`;
