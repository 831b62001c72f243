-- compose only: the same databases and grants the native stack creates (stack/native.sh up_mariadb).
CREATE DATABASE IF NOT EXISTS `perflab_test`;
GRANT ALL PRIVILEGES ON `perflab%`.* TO 'perflab'@'%';
-- SHOW ENGINE INNODB STATUS, for the wallet's lock probe (the runner's, tooling/perflab/lab/datasets/innodb_locks.py)
GRANT PROCESS ON *.* TO 'perflab'@'%';
FLUSH PRIVILEGES;
