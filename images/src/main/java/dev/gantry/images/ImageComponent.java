package dev.gantry.images;

/** Software a VM image ships with; the boot script installs what a plan needs and the image lacks. */
public enum ImageComponent {
    NVIDIA_DRIVER,
    CUDA,
    NCCL,
    /** The InfiniBand stack (Mellanox OFED / DOCA OFED, IPoIB): needed for RDMA between nodes. */
    INFINIBAND,
    MPI,
    DOCKER,
    NVIDIA_CONTAINER_TOOLKIT,
    /** NVIDIA Data Center GPU Manager. */
    DCGM,
    ROCM,
    RCCL,
    CONDA,
    /** Preinstalled ML frameworks (PyTorch, TensorFlow, ...). */
    ML_FRAMEWORKS
}
