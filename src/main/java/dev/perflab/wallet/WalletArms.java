package dev.perflab.wallet;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.perflab.support.interleave.ArmChoice;
import dev.perflab.support.interleave.InterleaveProperties;
import dev.perflab.support.interleave.Side;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The wallet in the interleaved mode ({@code perflab.lab.interleave.enabled=true}): both transfer variants and both
 * lookups live in the app, and each request takes the ones of its arm's side. A {@code before} arm runs the
 * 12-statement transfer with MariaDB lookups, an {@code after} arm the batched transfer with the Redis caches (when
 * the app runs with {@code perflab.wallet.cache=redis}). The pool, its auto-commit mode and the schema's index are
 * the app's, shared by both arms: the interleaved comparison leaves them out.
 * {@code perflab_wallet_arm_statements{arm}} counts each arm's statements per transfer.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.lab.interleave.enabled", havingValue = "true")
class WalletArms {

    @Bean
    @Primary
    TransferService armTransferService(InterleaveProperties arms, ObjectProvider<TransferService> all, WalletKnobs knobs) {
        ArmChoice<TransferService> choice = new ArmChoice<>(arms, variants(all, ArmTransferService.class), TransferService::side,
                knobs.transfer() == WalletKnobs.Transfer.OPTIMIZED ? Side.AFTER : Side.BEFORE);
        return new ArmTransferService(choice);
    }

    @Bean
    @Primary
    MemberDirectory armMemberDirectory(InterleaveProperties arms, ObjectProvider<MemberDirectory> all, WalletKnobs knobs) {
        return new ArmMemberDirectory(new ArmChoice<>(arms, variants(all, ArmMemberDirectory.class), MemberDirectory::side, cacheSide(knobs)));
    }

    @Bean
    @Primary
    LedgerCodes armLedgerCodes(InterleaveProperties arms, ObjectProvider<LedgerCodes> all, WalletKnobs knobs) {
        return new ArmLedgerCodes(new ArmChoice<>(arms, variants(all, ArmLedgerCodes.class), LedgerCodes::side, cacheSide(knobs)));
    }

    private static Side cacheSide(WalletKnobs knobs) {
        return knobs.cache() == WalletKnobs.Cache.REDIS ? Side.AFTER : Side.BEFORE;
    }

    /** The variants' beans, without this configuration's own router. */
    private static <T> List<T> variants(ObjectProvider<T> all, Class<?> router) {
        return all.stream().filter(t -> !router.isInstance(t)).toList();
    }

    record ArmTransferService(ArmChoice<TransferService> choice) implements TransferService {

        @Override
        public TransferResponse transfer(TransferCommand command) {
            return choice.current().transfer(command);
        }

        @Override
        public Side side() {
            return choice.current().side();
        }
    }

    record ArmMemberDirectory(ArmChoice<MemberDirectory> choice) implements MemberDirectory {

        @Override
        public Optional<MemberRef> byPhone(String phone) {
            return choice.current().byPhone(phone);
        }

        /** Every side follows the change: a cache the other arm reads must not keep the old number. */
        @Override
        public void phoneChanged(String oldPhone, String newPhone, MemberRef member) {
            choice.all().forEach(directory -> directory.phoneChanged(oldPhone, newPhone, member));
        }

        @Override
        public Side side() {
            return choice.current().side();
        }
    }

    record ArmLedgerCodes(ArmChoice<LedgerCodes> choice) implements LedgerCodes {

        @Override
        public LedgerCode get(String code) {
            return choice.current().get(code);
        }

        @Override
        public Map<String, LedgerCode> getAll(List<String> codes) {
            return choice.current().getAll(codes);
        }

        @Override
        public Side side() {
            return choice.current().side();
        }
    }
}
