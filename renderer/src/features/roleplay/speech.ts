// The customer's lines spoken by the system's speech synthesis, only when it has a Chinese voice (the text is
// always shown).
export function speakChinese(text: string): void {
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined;
  if (!synth) return;
  const voice = synth.getVoices().find((v) => v.lang.toLowerCase().startsWith('zh'));
  if (!voice) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.voice = voice;
  utterance.lang = voice.lang;
  synth.cancel();
  synth.speak(utterance);
}
