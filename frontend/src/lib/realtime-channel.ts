import type { RealtimeChannel, RealtimeChannelOptions } from '@supabase/supabase-js';
import { supabase } from './supabase';

/**
 * Opens a fresh Realtime channel for `topic` (issue 13). realtime-js returns an existing channel
 * of the same topic from `supabase.channel()`, also one still leaving after `removeChannel`; a page
 * that leaves and rejoins a topic quickly (navigation, remount) would then set up a dead channel.
 * This waits until such a channel is gone and creates a new one.
 * @returns a channel not yet subscribed; the caller adds listeners and subscribes
 */
export async function openChannel(topic: string, options: RealtimeChannelOptions): Promise<RealtimeChannel> {
  const existing = supabase.getChannels().find((c) => c.topic === `realtime:${topic}`);
  if (existing) await supabase.removeChannel(existing);
  return supabase.channel(topic, options);
}

/**
 * Runs `setup` on a fresh channel of `topic` and returns the function that removes it again; safe
 * to call from an effect (a cleanup before the channel opened cancels it).
 */
export function channelEffect(topic: string, options: RealtimeChannelOptions, setup: (channel: RealtimeChannel) => void): () => void {
  let cancelled = false;
  let channel: RealtimeChannel | null = null;
  void openChannel(topic, options).then((c) => {
    if (cancelled) return;
    channel = c;
    setup(c);
  });
  return () => {
    cancelled = true;
    if (channel) void supabase.removeChannel(channel);
  };
}
