/** The three build-time parts of a catalogue (vite/precompile-messages.ts, src/i18n/shell.ts). */
declare module '*.json?shell' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?rest' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?pages' {
  const messages: Record<string, string>;
  export default messages;
}
