import type { Metadata } from 'next';
import type { ReactNode } from 'react';

// No favicon file in this example: an empty one rather than a 404 in the console.
export const metadata: Metadata = { icons: { icon: 'data:,' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
