import type { PageBrand } from '../checkout-page';
import { markup, type Html } from './html';
import type { Messages } from './i18n';

/** Where the page's one stylesheet and one script are (CheckoutAssets). */
export interface AssetLinks {
  stylesheet: string;
  script: string;
}

/**
 * A whole page: the merchant's name in the band at the top, the content in `main`, the one
 * stylesheet and (when the page follows anything live) the one script, both from this origin. No
 * inline script or style: the Content-Security-Policy allows neither.
 */
export function layout(options: { m: Messages; title: string; brand: PageBrand | null; assets: AssetLinks; script: boolean; main: Html; mainAttributes?: Html }): string {
  const { m, brand, assets } = options;
  const page = markup`<!doctype html>
<html lang="${m.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${options.title}</title>
<link rel="stylesheet" href="${assets.stylesheet}">
${options.script ? markup`<script type="module" src="${assets.script}"></script>` : ''}
</head>
<body>
<header class="band">
<div class="wrap">${brand ? markup`<p class="merchant"><span class="visually-hidden">${m.merchantLabel}: </span>${brand.merchantName}</p>` : markup`<p class="merchant">Pix</p>`}</div>
</header>
<main class="card" id="main"${options.mainAttributes ?? ''}>
${options.main}
</main>
<footer class="wrap foot"><p>${m.securedBy}</p></footer>
</body>
</html>
`;
  return page.text;
}
