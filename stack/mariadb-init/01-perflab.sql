-- compose only: the same databases and grants the native stack creates (stack/native.sh up_mariadb).
CREATE DATABASE IF NOT EXISTS `perflab_test`;
GRANT ALL PRIVILEGES ON `perflab%`.* TO 'perflab'@'%';
FLUSH PRIVILEGES;
