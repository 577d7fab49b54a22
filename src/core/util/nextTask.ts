/**
 * Resolves in a task of its own, after the tasks already queued: long work cut there lets the app
 * draw and take input in between. A message, unlike a timer, is not slowed down in a hidden window.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
