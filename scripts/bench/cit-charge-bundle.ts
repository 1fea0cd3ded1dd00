import path from 'node:path';
import type { BundleOptions } from '@temporalio/worker';

type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
/** The part of webpack's compiler this plugin uses (webpack is the SDK's dependency, not ours). */
interface Compiler {
  webpack: {
    NormalModuleReplacementPlugin: new (
      pattern: RegExp,
      replace: (resource: { request: string; context: string; contextInfo?: { issuer?: string } }) => void,
    ) => { apply(compiler: Compiler): void };
  };
}

const ORDER_ACTIVITIES = path.resolve(__dirname, '../../src/workflows/order/activities.ts');
const SHAPE_SWITCH = path.resolve(__dirname, 'cit-charge-shape.ts');

/**
 * The bench bundle's webpack hook: every import of the order workflow's activities module
 * (src/workflows/order/activities.ts) but the switch's own gets scripts/bench/cit-charge-shape.ts,
 * which makes the CIT charge of the orders it marks a local activity. Bench-only.
 */
export function withCitChargeShapeSwitch(config: WebpackConfig): WebpackConfig {
  const plugin = {
    apply(compiler: Compiler) {
      new compiler.webpack.NormalModuleReplacementPlugin(/\/activities$/, (resource) => {
        if (resource.contextInfo?.issuer === SHAPE_SWITCH) return;
        const target = path.resolve(resource.context, `${resource.request}.ts`);
        if (target === ORDER_ACTIVITIES) resource.request = SHAPE_SWITCH;
      }).apply(compiler);
    },
  };
  return { ...config, plugins: [...(config.plugins ?? []), plugin] };
}
