package io.millrace.broker.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * The socket implementation under Netty: native epoll on Linux (fewer copies and syscalls;
 * {@code sendfile} for file regions), the JDK's NIO elsewhere (file regions go through
 * {@code FileChannel.transferTo}, which is also {@code sendfile} on Linux).
 */
public enum Transport {

    EPOLL {
        @Override
        EventLoopGroup newEventLoopGroup(int threads, ThreadFactory threadFactory) {
            return new EpollEventLoopGroup(threads, threadFactory);
        }

        @Override
        Class<? extends ServerChannel> serverChannelClass() {
            return EpollServerSocketChannel.class;
        }

        @Override
        public boolean isAvailable() {
            return Epoll.isAvailable();
        }
    },

    NIO {
        @Override
        EventLoopGroup newEventLoopGroup(int threads, ThreadFactory threadFactory) {
            return new NioEventLoopGroup(threads, threadFactory);
        }

        @Override
        Class<? extends ServerChannel> serverChannelClass() {
            return NioServerSocketChannel.class;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }
    };

    /** Epoll when its native library loads here, NIO otherwise. */
    public static Transport best() {
        return EPOLL.isAvailable() ? EPOLL : NIO;
    }

    public abstract boolean isAvailable();

    abstract EventLoopGroup newEventLoopGroup(int threads, ThreadFactory threadFactory);

    abstract Class<? extends ServerChannel> serverChannelClass();
}
