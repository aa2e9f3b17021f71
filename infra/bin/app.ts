import { createShopApp } from '../lib/shop-app';

// Entry point for the CDK CLI (cdk.json "app"). Everything lives in createShopApp so the tests
// synthesise exactly what the CLI does.
createShopApp().app.synth();
