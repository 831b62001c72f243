-- Kubernetes only: the databases the presets use (overlays set PERFLAB_DB_NAME). The wallet's index differs per
-- database (docs/wallet.md), so wallet-before and wallet-after each keep their own, as the native A/B runs do.
CREATE DATABASE IF NOT EXISTS `perflab_wallet_before`;
CREATE DATABASE IF NOT EXISTS `perflab_wallet_after`;
CREATE DATABASE IF NOT EXISTS `perflab_route`;
