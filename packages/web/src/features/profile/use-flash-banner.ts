import { BANNER_DURATION_MS } from '@campus-books/common/constants';
import { useCallback, useEffect, useState } from 'react';
import type { BannerTone } from '../../components/ui/banner';

export interface FlashBanner {
  tone: BannerTone;
  message: string;
}

/** A feedback banner that hides itself after BANNER_DURATION_MS; a new one restarts the clock. */
export function useFlashBanner() {
  const [banner, setBanner] = useState<FlashBanner | null>(null);

  useEffect(() => {
    if (!banner) return;
    const timer = window.setTimeout(() => setBanner(null), BANNER_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [banner]);

  const show = useCallback((tone: BannerTone, message: string) => setBanner({ tone, message }), []);
  return { banner, show };
}
