/// <reference types="vite/client" />

/** The brand's Cloudscape theme as a stylesheet, made at build time (web/brandThemePlugin.ts). */
declare module 'virtual:brand-theme-css' {
  const css: string;
  export default css;
}
